import Foundation
import Postgres
import Relay

/// One relay event as a line of JSON for `summit presence watch`.
struct WatchLine: Encodable {
    var type: String
    // position
    var userID: String?
    var name: String?
    var resortID: String?
    var lat: Double?
    var lon: Double?
    var capturedAt: String?
    var ageSeconds: Double?
    var freshness: String?
    var routingGrade: Bool?
    var source: String?
    var accuracyM: Double?
    var altitudeM: Double?
    var speedMps: Double?
    var headingDeg: Double?
    var nodeID: String?
    var edgeID: String?
    var edgeFraction: Double?
    // social
    var generation: Int64?
    var friends: [String]?
    // meet_request
    var table: String?
    var id: String?
    var event: String?
    // gap
    var reason: String?
    // phase
    var phase: String?
    var resort: String?

    enum CodingKeys: String, CodingKey {
        case type, userID = "user_id", name, resortID = "resort_id", lat, lon, capturedAt = "captured_at",
             ageSeconds = "age_s", freshness, routingGrade = "routing_grade", source, accuracyM = "accuracy_m",
             altitudeM = "altitude_m", speedMps = "speed_mps", headingDeg = "heading_deg", nodeID = "node_id",
             edgeID = "edge_id", edgeFraction = "edge_fraction", generation, friends, table, id, event, reason,
             phase, resort
    }

    init(_ event: RelayEvent) {
        switch event {
        case .position(let position):
            let packet = position.packet
            type = "position"
            userID = packet.userID.uuidString.lowercased()
            name = packet.name
            resortID = packet.resortID
            lat = packet.latitude
            lon = packet.longitude
            capturedAt = PostgresTimestamp.format(packet.capturedAt)
            ageSeconds = (position.freshness.ageSeconds * 1000).rounded() / 1000
            freshness = position.freshness.display.rawValue
            routingGrade = position.freshness.routingGrade
            source = position.source.rawValue
            accuracyM = packet.accuracy
            altitudeM = packet.altitude
            speedMps = packet.speed
            headingDeg = packet.heading
            nodeID = packet.nodeID
            edgeID = packet.edgeID
            edgeFraction = packet.edgeFraction
        case .social(let generation, let friends):
            type = "social"
            self.generation = generation
            self.friends = friends.map { $0.uuidString.lowercased() }
        case .meetRequest(let notice):
            type = "meet_request"
            table = notice.table
            id = notice.id
            self.event = notice.event
        case .gap(let reason):
            type = "gap"
            self.reason = reason
        case .phase(let phase, let resort):
            type = "phase"
            self.phase = phase.rawValue
            self.resort = resort
        }
    }

    func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
