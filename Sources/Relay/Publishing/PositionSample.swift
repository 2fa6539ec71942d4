import Foundation

/// One GPS sample to publish with `meet.broadcast_position`.
public struct PositionSample: Sendable, Equatable {
    /// The sender's selected canonical resort.
    public var resortID: String
    public var latitude: Double
    public var longitude: Double
    /// When the GPS sample was taken (the fix's own time, never the send time).
    public var capturedAt: Date
    public var accuracy: Double?
    public var altitude: Double?
    public var speed: Double?
    public var heading: Double?
    public var nodeID: String?
    public var edgeID: String?
    public var edgeFraction: Double?

    public init(resortID: String, latitude: Double, longitude: Double, capturedAt: Date,
                accuracy: Double? = nil, altitude: Double? = nil, speed: Double? = nil, heading: Double? = nil,
                nodeID: String? = nil, edgeID: String? = nil, edgeFraction: Double? = nil) {
        self.resortID = resortID
        self.latitude = latitude
        self.longitude = longitude
        self.capturedAt = capturedAt
        self.accuracy = accuracy
        self.altitude = altitude
        self.speed = speed
        self.heading = heading
        self.nodeID = nodeID
        self.edgeID = edgeID
        self.edgeFraction = edgeFraction
    }
}
