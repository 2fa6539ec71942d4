import Foundation
import JSONDepth
import MeetSolver
import MountainGraph

/// A `meet.meet_requests` row as the RPCs return it.
struct MeetRequestRow: Decodable, Sendable {
    var id: UUID
    var senderId: UUID
    var receiverId: UUID
    var resortId: String
    var rendezvousPointId: String
    var meetingNodeId: String
    var meetingNodeDisplayName: String
    var senderStart: StoredStart
    var receiverStart: StoredStart
    var senderEtaSeconds: Double
    var receiverEtaSeconds: Double
    var senderEtaStdSeconds: Double
    var receiverEtaStdSeconds: Double
    var senderPathEdgeIds: [String]
    var receiverPathEdgeIds: [String]
    var status: String
    var createdAt: String
    var expiresAt: String
    var datasetVersion: String?
    var manifestVersion: Int?

    enum CodingKeys: String, CodingKey {
        case id, status
        case senderId = "sender_id"
        case receiverId = "receiver_id"
        case resortId = "resort_id"
        case rendezvousPointId = "rendezvous_point_id"
        case meetingNodeId = "meeting_node_id"
        case meetingNodeDisplayName = "meeting_node_display_name"
        case senderStart = "sender_start"
        case receiverStart = "receiver_start"
        case senderEtaSeconds = "sender_eta_seconds"
        case receiverEtaSeconds = "receiver_eta_seconds"
        case senderEtaStdSeconds = "sender_eta_std_seconds"
        case receiverEtaStdSeconds = "receiver_eta_std_seconds"
        case senderPathEdgeIds = "sender_path_edge_ids"
        case receiverPathEdgeIds = "receiver_path_edge_ids"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case datasetVersion = "dataset_version"
        case manifestVersion = "manifest_version"
    }

    init(json text: String) throws {
        try JSONDepth.check(text.utf8)
        self = try JSONDecoder().decode(MeetRequestRow.self, from: Data(text.utf8))
    }

    /// The exact identity the request was planned on; nil for a legacy row.
    var identity: DatasetVersion? { datasetVersion.flatMap(DatasetVersion.init) }

    /// One party's side of the stored plan.
    struct Side: Sendable {
        var userID: UUID
        var start: StoredStart
        var path: [String]
        var eta: Double
        var etaStd: Double
    }

    var sender: Side { Side(userID: senderId, start: senderStart, path: senderPathEdgeIds, eta: senderEtaSeconds, etaStd: senderEtaStdSeconds) }
    var receiver: Side { Side(userID: receiverId, start: receiverStart, path: receiverPathEdgeIds, eta: receiverEtaSeconds, etaStd: receiverEtaStdSeconds) }

    func side(of user: UUID) -> Side? { user == senderId ? sender : user == receiverId ? receiver : nil }
}
