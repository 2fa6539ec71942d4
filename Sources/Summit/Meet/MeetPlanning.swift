import Foundation
import MeetSolver
import Postgres

/// Plans a meet between the caller and a friend: loads the resort's active
/// dataset as the caller, takes both starts (given, or their newest shared
/// position), and solves strictly.
struct MeetPlanning: Sendable {
    let session: AppSession
    let me: AppSession.Person
    let friend: AppSession.Person
    let caller: Caller

    struct Planned: Sendable {
        var world: MeetWorld
        var solver: MeetSolver
        var starts: [SkierStart]
        var outcome: Result<MeetingResult, MeetFailure>
        /// How long the solver's call took; nil when a strict failure came before it.
        var solveDuration: Duration? = nil
    }

    func plan(resortID: String, at: Double?, myStart: String?, friendStart: String?, accuracy: Double?,
              conditions: ResortConditions?, mode: SolveMode = .live) async throws -> Planned {
        if me.id == friend.id {
            throw CLIError("\(me.name) cannot meet themselves", fix: "name a friend with --friend")
        }
        let world = try await MeetWorldLoader(session: session, caller: caller)
            .load(resortID: resortID, skierIDs: [me.id, friend.id], at: at, conditions: conditions)
        let solver = world.solver()
        var starts: [SkierStart] = []
        var failure: MeetFailure?
        for (person, text, option) in [(me, myStart, "--start"), (friend, friendStart, "--friend-start")] {
            let skierID = person.id.uuidString.lowercased()
            switch try StartSpec.parse(text, option: option, now: world.now, resortID: resortID, accuracy: accuracy) {
            case let .given(origin):
                starts.append(SkierStart(skierID: skierID, origin: origin, accuracyMeters: accuracy))
            case .livePosition:
                guard let position = try await LivePosition.latest(of: person.id, in: session, as: caller) else {
                    failure = failure ?? .startUnresolved(skierID: skierID, reason: "\(person.name) has shared no position recently")
                    starts.append(SkierStart(skierID: skierID, origin: .node("")))
                    continue
                }
                switch position.start(skierID: skierID, now: world.now, resortID: resortID) {
                case let .success(start): starts.append(start)
                case let .failure(problem):
                    failure = failure ?? problem
                    starts.append(SkierStart(skierID: skierID, origin: .node("")))
                }
            }
        }
        // The order of strict failures: status before starts.
        if let usability = solver.statusUsability, !usability.isUsable {
            return Planned(world: world, solver: solver, starts: starts, outcome: .failure(.operationalStatusUnavailable(usability)))
        }
        if let failure { return Planned(world: world, solver: solver, starts: starts, outcome: .failure(failure)) }
        var outcome: Result<MeetingResult, MeetFailure>?
        let solveDuration = ContinuousClock().measure { outcome = solver.solve(starts[0], starts[1], mode: mode) }
        return Planned(world: world, solver: solver, starts: starts, outcome: outcome!, solveDuration: solveDuration)
    }

    /// A person's name by solver skier id.
    var names: [String: String] {
        [me.id.uuidString.lowercased(): me.name, friend.id.uuidString.lowercased(): friend.name]
    }
}
