import Foundation
import Relay

/// Relay events as messages on a position channel: each friend's position a
/// `broadcast` with event `position` and the packet's own keys (`u`, `n`, `lat`,
/// `lon`, `at`, …) plus its freshness, as the apps read packets from the hosted
/// broadcast. Written by hand: this runs once per subscriber per packet.
enum PositionWire {
    /// `positionEvent`: the event friends' positions arrive as (`pos` for the PowderMeet app).
    static func message(for event: RelayEvent, topic: String, serializer: PhoenixMessage.Serializer,
                        positionEvent: String = "position") -> String? {
        let body: String
        switch event {
        case .position(let position):
            body = broadcast(positionEvent, packet(position))
        case .social(let generation, let friends):
            body = broadcast("friends", #"{"generation":\#(generation),"friends":["#
                + friends.map { JSONText.quote($0.uuidString.lowercased()) }.joined(separator: ",") + "]}")
        case .gap(let reason):
            return PhoenixMessage.system(topic: topic, extension: "relay",
                                         message: "the relay lost its database connection and is back (\(reason)); stored positions follow",
                                         ok: true, serializer: serializer)
        case .meetRequest, .phase:
            return nil
        }
        return PhoenixMessage.encode(topic: topic, event: "broadcast", payloadJSON: body, serializer: serializer)
    }

    private static func broadcast(_ event: String, _ payload: String) -> String {
        #"{"event":""# + event + #"","payload":"# + payload + #","type":"broadcast"}"#
    }

    static func packet(_ position: FriendPosition) -> String {
        let packet = position.packet
        var text = #"{"u":""# + packet.userID.uuidString.lowercased() + "\""
        if let name = packet.name { text += #","n":"# + JSONText.quote(name) }
        text += #","lat":"# + number(packet.latitude) + #","lon":"# + number(packet.longitude)
        text += #","at":"# + capturedSeconds(packet.capturedMicros)
        if let value = packet.accuracy { text += #","acc":"# + number(value) }
        if let value = packet.altitude { text += #","alt":"# + number(value) }
        if let value = packet.speed { text += #","spd":"# + number(value) }
        if let value = packet.heading { text += #","hdg":"# + number(value) }
        if let value = packet.nodeID { text += #","node":"# + JSONText.quote(value) }
        if let value = packet.edgeID { text += #","edge":"# + JSONText.quote(value) }
        if let value = packet.edgeFraction { text += #","frac":"# + number(value) }
        text += #","r":"# + JSONText.quote(packet.resortID)
        text += #","freshness":""# + position.freshness.display.rawValue + "\""
        text += #","routing_grade":"# + (position.freshness.routingGrade ? "true" : "false")
        text += #","source":""# + (position.source == .stored ? "stored" : "live") + #""}"#
        return text
    }

    /// Shortest round-tripping decimal; non-finite values cannot reach here (SQL checks them).
    private static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    /// Unix seconds with the microseconds exact.
    private static func capturedSeconds(_ micros: Int64) -> String {
        let seconds = micros / 1_000_000, fraction = abs(micros % 1_000_000)
        return "\(seconds)." + String(fraction).leftPadded(to: 6)
    }
}
