import Foundation
import MeetSolver
import Postgres

/// The newest shared position of a skier (`meet.live_presence`, read under
/// row level security: one's own and unblocked friends'), as a start.
struct LivePosition: Decodable, Sendable {
    var resortId: String
    var lat: Double
    var lon: Double
    var accuracyM: Double?
    var nodeId: String?
    var edgeId: String?
    var edgeFraction: Double?
    var capturedAt: Double

    static func latest(of user: UUID, in session: AppSession, as caller: Caller) async throws -> LivePosition? {
        try await session.connection.acting(as: caller) { db in
            try await db.query("""
                select resort_id, lat, lon, accuracy_m, node_id, edge_id, edge_fraction,
                       extract(epoch from captured_at)::float8 as captured_at
                from meet.live_presence where user_id = \(user)
                """).first(as: LivePosition.self)
        }
    }

    var fix: GPSFix { GPSFix(lat: lat, lon: lon, accuracyMeters: accuracyM, capturedAt: capturedAt, resortID: resortId) }

    /// A routing-grade position as a start: the sender-resolved edge or node
    /// when the packet carries one, else the fix itself; or why it cannot start a route.
    func start(skierID: String, now: Double, resortID: String) -> Result<SkierStart, MeetFailure> {
        if let problem = fix.routingGradeProblem(now: now, resortID: resortID) {
            return .failure(.startUnresolved(skierID: skierID, reason: "their latest shared position cannot start a route: \(problem)"))
        }
        let origin: RoutingOrigin
        if let edge = edgeId, let fraction = edgeFraction {
            origin = .edge(edge, fraction: fraction)
        } else if let node = nodeId {
            origin = .node(node)
        } else {
            origin = .fix(fix)
        }
        return .success(SkierStart(skierID: skierID, origin: origin, accuracyMeters: accuracyM))
    }
}
