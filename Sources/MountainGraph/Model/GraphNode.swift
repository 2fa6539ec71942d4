/// A graph node: one OSM vertex where edges meet or end.
public struct GraphNode: Sendable, Equatable {
    /// `"n" + OSM vertex id`.
    public var id: String
    public var lat: Double
    public var lon: Double
    public var elevation: Double
    public var kind: NodeKind

    public init(id: String, lat: Double, lon: Double, elevation: Double, kind: NodeKind) {
        self.id = id
        self.lat = lat
        self.lon = lon
        self.elevation = elevation
        self.kind = kind
    }

    public var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }
}
