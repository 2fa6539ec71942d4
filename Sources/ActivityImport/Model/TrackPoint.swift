/// One GPS fix of a recording, in the units the spec uses everywhere.
public struct TrackPoint: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00Z (UTC), with the fraction the source kept.
    public var time: Double
    public var lat: Double
    public var lon: Double
    /// Metres above sea level, when the source recorded it.
    public var elevation: Double?
    /// Metres per second as the device measured it, when known (never a sentinel such as −1).
    public var speed: Double?
    /// Horizontal accuracy in metres, when known.
    public var horizontalAccuracy: Double?
    public var heartRate: Double?

    public init(time: Double, lat: Double, lon: Double, elevation: Double? = nil, speed: Double? = nil,
                horizontalAccuracy: Double? = nil, heartRate: Double? = nil) {
        self.time = time
        self.lat = lat
        self.lon = lon
        self.elevation = elevation
        self.speed = speed
        self.horizontalAccuracy = horizontalAccuracy
        self.heartRate = heartRate
    }
}
