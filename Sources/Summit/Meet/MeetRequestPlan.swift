import Foundation
import MeetSolver
import MountainGraph

/// The plan a sender stores with a meet request (`meet.send_meet_request`):
/// the exact dataset identity, the rendezvous point, both exact starts and
/// both full paths with their ETAs and standard deviations.
struct MeetRequestPlan: Codable, Sendable {
    var resortId: String
    var datasetVersion: String
    var manifestVersion: Int
    var graphSnapshotDate: String
    var rendezvousPointId: String
    var meetingNodeId: String
    var meetingNodeDisplayName: String
    var meetingNodeElevation: Double?
    var senderStart: StoredStart
    var receiverStart: StoredStart
    var senderEtaSeconds: Double
    var receiverEtaSeconds: Double
    var senderEtaStdSeconds: Double
    var receiverEtaStdSeconds: Double
    var senderPathEdgeIds: [String]
    var receiverPathEdgeIds: [String]

    enum CodingKeys: String, CodingKey {
        case resortId = "resort_id"
        case datasetVersion = "dataset_version"
        case manifestVersion = "manifest_version"
        case graphSnapshotDate = "graph_snapshot_date"
        case rendezvousPointId = "rendezvous_point_id"
        case meetingNodeId = "meeting_node_id"
        case meetingNodeDisplayName = "meeting_node_display_name"
        case meetingNodeElevation = "meeting_node_elevation"
        case senderStart = "sender_start"
        case receiverStart = "receiver_start"
        case senderEtaSeconds = "sender_eta_seconds"
        case receiverEtaSeconds = "receiver_eta_seconds"
        case senderEtaStdSeconds = "sender_eta_std_seconds"
        case receiverEtaStdSeconds = "receiver_eta_std_seconds"
        case senderPathEdgeIds = "sender_path_edge_ids"
        case receiverPathEdgeIds = "receiver_path_edge_ids"
    }

    /// Routes A and B of `option` as the sender's and the receiver's, with
    /// the GPS accuracy each start was planned with.
    init(world: MeetWorld, option: MeetingOption, senderAccuracy: Double?, receiverAccuracy: Double?) {
        resortId = world.identity.resortID
        datasetVersion = world.identity.datasetVersion
        manifestVersion = world.identity.manifestVersion
        graphSnapshotDate = world.identity.snapshotDate
        rendezvousPointId = option.rendezvousPointID
        meetingNodeId = option.nodeID
        meetingNodeDisplayName = option.displayName
        meetingNodeElevation = world.graph.node(id: option.nodeID)?.elevation
        senderStart = StoredStart(option.routeA.origin, accuracy: senderAccuracy)
        receiverStart = StoredStart(option.routeB.origin, accuracy: receiverAccuracy)
        senderEtaSeconds = option.routeA.eta
        receiverEtaSeconds = option.routeB.eta
        senderEtaStdSeconds = option.routeA.etaStd
        receiverEtaStdSeconds = option.routeB.etaStd
        senderPathEdgeIds = option.routeA.edgeIDs
        receiverPathEdgeIds = option.routeB.edgeIDs
    }
}

/// An exact start as stored: `{"node": id}` or `{"edge": id, "fraction": f}`, with `accuracy_m`.
struct StoredStart: Codable, Sendable, Equatable {
    var node: String?
    var edge: String?
    var fraction: Double?
    var accuracyM: Double?

    enum CodingKeys: String, CodingKey {
        case node, edge, fraction
        case accuracyM = "accuracy_m"
    }

    init(_ origin: RoutingOrigin, accuracy: Double?) {
        switch origin {
        case let .node(id): node = id
        case let .edge(id, fraction): edge = id; self.fraction = fraction
        case let .fix(fix): node = nil; accuracyM = fix.accuracyMeters
        }
        if let accuracy { accuracyM = accuracy }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(node, forKey: .node)
        try c.encodeIfPresent(edge, forKey: .edge)
        try c.encodeIfPresent(fraction, forKey: .fraction)
        try c.encodeIfPresent(accuracyM, forKey: .accuracyM)
    }

    var origin: RoutingOrigin? {
        if let node { return .node(node) }
        if let edge, let fraction { return .edge(edge, fraction: fraction) }
        return nil
    }
}
