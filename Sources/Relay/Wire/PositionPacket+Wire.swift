import Foundation
import JSONDepth

extension PositionPacket: Codable {
    enum CodingKeys: String, CodingKey {
        case userID = "u", name = "n", latitude = "lat", longitude = "lon", captured = "at"
        case accuracy = "acc", altitude = "alt", speed = "spd", heading = "hdg"
        case nodeID = "node", edgeID = "edge", edgeFraction = "frac", resortID = "r"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userID = try container.decode(UUID.self, forKey: .userID)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        latitude = try container.decode(Double.self, forKey: .latitude)
        longitude = try container.decode(Double.self, forKey: .longitude)
        // Unix seconds with six decimals: near 1.8e9 a Double is exact to a tenth of a
        // microsecond, so rounding recovers the server's microseconds exactly.
        capturedMicros = Int64((try container.decode(Double.self, forKey: .captured) * 1_000_000).rounded())
        accuracy = try container.decodeIfPresent(Double.self, forKey: .accuracy)
        altitude = try container.decodeIfPresent(Double.self, forKey: .altitude)
        speed = try container.decodeIfPresent(Double.self, forKey: .speed)
        heading = try container.decodeIfPresent(Double.self, forKey: .heading)
        nodeID = try container.decodeIfPresent(String.self, forKey: .nodeID)
        edgeID = try container.decodeIfPresent(String.self, forKey: .edgeID)
        edgeFraction = try container.decodeIfPresent(Double.self, forKey: .edgeFraction)
        resortID = try container.decode(String.self, forKey: .resortID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(Double(capturedMicros) / 1_000_000, forKey: .captured)
        try container.encodeIfPresent(accuracy, forKey: .accuracy)
        try container.encodeIfPresent(altitude, forKey: .altitude)
        try container.encodeIfPresent(speed, forKey: .speed)
        try container.encodeIfPresent(heading, forKey: .heading)
        try container.encodeIfPresent(nodeID, forKey: .nodeID)
        try container.encodeIfPresent(edgeID, forKey: .edgeID)
        try container.encodeIfPresent(edgeFraction, forKey: .edgeFraction)
        try container.encode(resortID, forKey: .resortID)
    }

    /// The packet in a notification's payload. The scanner reads only flat
    /// objects; anything else is checked for depth before JSONDecoder reads it.
    public init(payload: String) throws {
        var payload = payload
        if let packet = payload.withUTF8({ Self.scanned($0) }) {
            self = packet
            return
        }
        try JSONDepth.check(payload.utf8)
        self = try JSONDecoder().decode(PositionPacket.self, from: Data(payload.utf8))
    }
}
