/// A WGS84 position in degrees, kept exactly as the source wrote it.
public struct Coordinate: Sendable, Equatable, Hashable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}
