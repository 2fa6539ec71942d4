import Foundation
import MeetSolver
import Postgres

/// Activation of a stored meet on one phone: the exact dataset the request
/// names, a rendezvous point of its catalog, usable status, and the stored
/// paths all-or-nothing — or a strict re-solve from the same exact start to
/// the same meeting point. Never anything looser.
struct MeetActivation: Sendable {
    struct Side: Sendable, Encodable {
        var user: String
        var edgeIds: [String]
        var etaSeconds: Double
        var etaStdSeconds: Double
        /// Why the stored path was replaced, or nil when it held as stored.
        var replacedBecause: String?

        enum CodingKeys: String, CodingKey {
            case user
            case edgeIds = "edge_ids"
            case etaSeconds = "eta_seconds"
            case etaStdSeconds = "eta_std_seconds"
            case replacedBecause = "replaced_because"
        }
    }

    var world: MeetWorld
    var solver: MeetSolver
    /// The activating user's route, then the other's as stored (checked).
    var mine: Side
    var theirs: Side
    /// The other party's stored path did not hold; their phone re-solves it.
    var theirsProblem: String?

    /// Loads the request's exact dataset as `caller` and activates it for `me`.
    static func activate(_ request: MeetRequestRow, for me: AppSession.Person, other: AppSession.Person,
                         in session: AppSession, as caller: Caller, conditions: ResortConditions?) async throws -> MeetActivation {
        guard let identity = request.identity else {
            throw CLIError("meet request \(request.id.uuidString.lowercased()) carries no dataset identity (a legacy request) and cannot be activated",
                           fix: "ask your friend to plan the meet again")
        }
        let world = try await MeetWorldLoader(session: session, caller: caller)
            .load(resortID: request.resortId, exact: identity, skierIDs: [request.senderId, request.receiverId], conditions: conditions)
        let solver = world.solver()
        if let usability = solver.statusUsability, !usability.isUsable {
            throw CLIError("cannot activate the meet: \(MeetFailure.operationalStatusUnavailable(usability).explanation)",
                           fix: "record a current status sidecar for \(request.resortId), then try again")
        }
        guard let mySide = request.side(of: me.id), let theirSide = request.side(of: other.id) else {
            throw CLIError("\(me.name) is not a party of this meet request", fix: "act as its sender or receiver")
        }
        func check(_ side: MeetRequestRow.Side) throws -> RoutingOrigin {
            guard let origin = side.start.origin else {
                throw CLIError("the stored start of this meet is unreadable", fix: "plan the meet again")
            }
            return origin
        }
        let myOrigin = try check(mySide), theirOrigin = try check(theirSide)
        let myID = me.id.uuidString.lowercased(), theirID = other.id.uuidString.lowercased()
        let activation = solver.activate(storedRoute: mySide.path, origin: myOrigin, accuracyMeters: mySide.start.accuracyM,
                                         skierID: myID, rendezvousPointID: request.rendezvousPointId)
        let mine: Side
        switch activation {
        case let .success(value):
            mine = Side(user: me.name, edgeIds: value.edgeIDs, etaSeconds: value.metrics.mean, etaStdSeconds: value.metrics.std,
                        replacedBecause: value.storedRouteProblem?.explanation)
        case let .failure(failure):
            throw CLIError("cannot activate the meet at \(request.meetingNodeDisplayName): \(failure.explanation)",
                           fix: "decline or end it, and plan a new meet")
        }
        let theirs: Side
        var theirsProblem: String?
        switch solver.validateStoredRoute(theirSide.path, origin: theirOrigin, accuracyMeters: theirSide.start.accuracyM,
                                          skierID: theirID, rendezvousPointID: request.rendezvousPointId) {
        case let .success(metrics):
            theirs = Side(user: other.name, edgeIds: theirSide.path, etaSeconds: metrics.mean, etaStdSeconds: metrics.std, replacedBecause: nil)
        case let .failure(problem):
            theirsProblem = problem.explanation
            theirs = Side(user: other.name, edgeIds: theirSide.path, etaSeconds: theirSide.eta, etaStdSeconds: theirSide.etaStd,
                          replacedBecause: problem.explanation)
        }
        return MeetActivation(world: world, solver: solver, mine: mine, theirs: theirs, theirsProblem: theirsProblem)
    }
}
