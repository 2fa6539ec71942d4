import Foundation

/// One position packet, as `meet.broadcast_position` notifies it and friends
/// receive it (spec §7.2): short keys on the wire, absent fields left out.
public struct PositionPacket: Sendable, Equatable {
    /// `u`: the sender.
    public var userID: UUID
    /// `n`: a label for the sender. The server's packets leave it out; the relay fills
    /// it from the subscriber's social snapshot (display name, else username).
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    /// `at`: when the GPS sample was taken, stamped by the sender — never the send
    /// time — in microseconds since 1970. The order of a sender's samples.
    public var capturedMicros: Int64
    /// `acc`: horizontal accuracy, metres.
    public var accuracy: Double?
    /// `alt`: altitude, metres.
    public var altitude: Double?
    /// `spd`: speed, metres per second.
    public var speed: Double?
    /// `hdg`: heading, degrees.
    public var heading: Double?
    /// `node`: the sender-resolved graph node.
    public var nodeID: String?
    /// `edge` and `frac`: the sender-resolved directed edge and the fraction along it.
    public var edgeID: String?
    public var edgeFraction: Double?
    /// `r`: the sender's selected canonical resort.
    public var resortID: String

    public init(userID: UUID, name: String? = nil, latitude: Double, longitude: Double, capturedMicros: Int64,
                accuracy: Double? = nil, altitude: Double? = nil, speed: Double? = nil, heading: Double? = nil,
                nodeID: String? = nil, edgeID: String? = nil, edgeFraction: Double? = nil, resortID: String) {
        self.userID = userID
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.capturedMicros = capturedMicros
        self.accuracy = accuracy
        self.altitude = altitude
        self.speed = speed
        self.heading = heading
        self.nodeID = nodeID
        self.edgeID = edgeID
        self.edgeFraction = edgeFraction
        self.resortID = resortID
    }

    public var capturedAt: Date { Date(timeIntervalSince1970: Double(capturedMicros) / 1_000_000) }

    /// Microseconds since 1970 of `date`, the resolution of `timestamptz`.
    public static func micros(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }
}
