import Foundation
import MeetSolver
import Postgres

/// After an hourly weather merge has committed: each accepted meet at the
/// resort is re-costed under the merged conditions, on its exact dataset, to
/// its agreed rendezvous point. The stored path is kept when it still holds;
/// otherwise a strict re-solve runs from the same start to the same stop.
/// The destination is an input here, never an output: weather may change an
/// ETA or a path, never where two skiers meet, and never the status or
/// ability gates (an unusable status leaves the meet as it is, reported).
struct ActiveMeetReevaluation: Sendable {
    let session: AppSession

    struct Side: Sendable, Encodable {
        var userID: String
        var storedEtaSeconds: Double
        var etaSeconds: Double?
        var pathChanged: Bool

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case storedEtaSeconds = "stored_eta_seconds"
            case etaSeconds = "eta_seconds"
            case pathChanged = "path_changed"
        }
    }

    struct Outcome: Sendable, Encodable {
        var requestID: String
        var rendezvousPointID: String
        var meetingNodeID: String
        var sides: [Side]
        /// Why the meet could not be re-costed (it keeps its stored plan).
        var problem: String?

        enum CodingKeys: String, CodingKey {
            case requestID = "request_id"
            case rendezvousPointID = "rendezvous_point_id"
            case meetingNodeID = "meeting_node_id"
            case sides, problem
        }
    }

    func reevaluate(resortID: String, progress: @Sendable (String) -> Void = { _ in }) async throws -> [Outcome] {
        let rows = try await session.connection.query("""
            select to_jsonb(r)::text from meet.meet_requests r
            where r.resort_id = \(resortID) and r.status = 'accepted' and r.dataset_version is not null
            order by r.created_at
            """, as: .serviceRole).decode(String.self)
        var outcomes: [Outcome] = []
        for text in rows {
            let request = try MeetRequestRow(json: text)
            outcomes.append(await reevaluate(request))
        }
        if !outcomes.isEmpty {
            progress("re-evaluated \(outcomes.count) active meet\(outcomes.count == 1 ? "" : "s") at \(resortID) under the merged weather; meeting points unchanged")
        }
        return outcomes
    }

    private func reevaluate(_ request: MeetRequestRow) async -> Outcome {
        var outcome = Outcome(requestID: request.id.uuidString.lowercased(), rendezvousPointID: request.rendezvousPointId,
                              meetingNodeID: request.meetingNodeId, sides: [], problem: nil)
        do {
            guard let identity = request.identity else { throw CLIError("the request carries no dataset identity") }
            let world = try await MeetWorldLoader(session: session, caller: .serviceRole)
                .load(resortID: request.resortId, exact: identity, skierIDs: [request.senderId, request.receiverId])
            let solver = world.solver()
            if let usability = solver.statusUsability, !usability.isUsable {
                outcome.problem = MeetFailure.operationalStatusUnavailable(usability).explanation
                return outcome
            }
            for side in [request.sender, request.receiver] {
                let skierID = side.userID.uuidString.lowercased()
                var entry = Side(userID: skierID, storedEtaSeconds: side.eta, etaSeconds: nil, pathChanged: false)
                if let origin = side.start.origin {
                    switch solver.activate(storedRoute: side.path, origin: origin, accuracyMeters: side.start.accuracyM,
                                           skierID: skierID, rendezvousPointID: request.rendezvousPointId) {
                    case let .success(activation):
                        entry.etaSeconds = activation.metrics.mean
                        entry.pathChanged = activation.edgeIDs != side.path
                    case let .failure(failure):
                        outcome.problem = outcome.problem ?? failure.explanation
                    }
                } else {
                    outcome.problem = outcome.problem ?? "a stored start is unreadable"
                }
                outcome.sides.append(entry)
            }
        } catch {
            outcome.problem = String(describing: error)
        }
        return outcome
    }
}
