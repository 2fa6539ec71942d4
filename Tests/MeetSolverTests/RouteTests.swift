import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// Stored routes, activation, solo paths, route steps and the switch policy.
@Suite("Routes")
struct RouteTests {
    /// ann at n1: t12 then l23 to the top n3; bob at n4 takes t43. A slower
    /// second way for ann: t15, t53.
    static func mountain() -> TestMountain {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(2, x: 4, y: -2, kind: .liftBase); m.node(3, x: 4, y: 6, kind: .liftTop)
        m.node(4, x: 10, y: 10); m.node(5, x: 2, y: 8)
        m.run("t12", 1, 2, length: 500, group: "gA")
        m.lift("l23", 2, 3, ride: 240, name: "Gondola")
        m.run("t43", 4, 3, length: 900, difficulty: .blue)
        m.run("t15", 1, 5, length: 2800, group: "gA")
        m.run("t53", 5, 3, length: 700)
        m.meetAt(3, .liftTop)
        return m
    }

    @Test("a stored route that still holds is re-costed as it is, with its uncertainty")
    func storedRouteHolds() throws {
        let solver = Self.mountain().solver()
        let result = try #require(solver.solve(.ann(1), .bob(4)).value)
        let route = result.primary.routeA
        let metrics = try #require(solver.validateStoredRoute(route.edgeIDs, origin: route.origin, skierID: "ann", rendezvousPointID: "rp3").value)
        #expect(abs(metrics.mean - route.eta) < 1e-9 && abs(metrics.std - route.etaStd) < 1e-9)
        let activation = try #require(solver.activate(storedRoute: route.edgeIDs, origin: route.origin, skierID: "ann", rendezvousPointID: "rp3").value)
        #expect(activation.storedRouteProblem == nil && activation.edgeIDs == route.edgeIDs)
    }

    @Test("stored routes are checked all-or-nothing", arguments: [
        (["t12", "l23"], "n4", "wrongStart"),
        (["t12"], "n1", "wrongEnd"),
        (["t12", "t53"], "n1", "disconnected"),
        (["t12", "x99"], "n1", "unknownEdge"),
    ])
    func storedRouteProblems(path: [String], start: String, problem: String) {
        let solver = Self.mountain().solver()
        let outcome = solver.validateStoredRoute(path, origin: .node(start), skierID: "ann", rendezvousPointID: "rp3")
        #expect(outcome.error.map { "\($0)".hasPrefix(problem) } == true, "\(outcome)")
    }

    @Test("a stored route over a lift that has closed since is replaced by an exact-start re-solve to the same stop")
    func activationResolvesAgain() throws {
        let m = Self.mountain()
        let solver = m.solver(status: .some(m.status(edges: ["l23": .init(isOpen: false)])))
        let activation = try #require(solver.activate(storedRoute: ["t12", "l23"], origin: .node("n1"), skierID: "ann", rendezvousPointID: "rp3").value)
        #expect(activation.storedRouteProblem == .untraversable("l23"))
        #expect(activation.edgeIDs == ["t15", "t53"])
        // With nothing left open there is no fallback route.
        let shut = m.solver(status: .some(m.status(edges: ["l23": .init(isOpen: false), "t53": .init(isOpen: false)])))
        #expect(shut.activate(storedRoute: ["t12", "l23"], origin: .node("n1"), skierID: "ann", rendezvousPointID: "rp3").error == .meet(.closures))
        #expect(shut.activate(storedRoute: [], origin: .node("n1"), skierID: "ann", rendezvousPointID: "rp404").error == .unknownRendezvousPoint("rp404"))
    }

    @Test("a solo path goes only to a catalog stop, by the same strict rules")
    func pathTo() throws {
        let solver = Self.mountain().solver()
        let route = try #require(solver.pathTo(rendezvousPointID: "rp3", from: .ann(1)).value)
        #expect(route.edgeIDs == ["t12", "l23"])
        #expect(solver.pathTo(rendezvousPointID: "rp2", from: .ann(1)).error == .unknownRendezvousPoint("rp2"))
        #expect(Self.mountain().solver(canonical: false).pathTo(rendezvousPointID: "rp3", from: .ann(1)).error == .meet(.nonCanonicalDataset))
    }

    @Test("route steps group one run's pieces and name runs and lifts")
    func steps() throws {
        let solver = Self.mountain().solver()
        let route = MeetRoute(skierID: "ann", origin: .node("n1"), edgeIDs: ["t12", "l23"], eta: 0, etaStd: 0,
                              legTimes: [10, 20], legStds: [1, 2], actions: 2)
        let steps = solver.steps(of: route)
        #expect(steps.map(\.kind) == ["run", "lift"])
        #expect(steps.map(\.name) == ["Run t12", "Gondola"])
        let grouped = solver.steps(of: MeetRoute(skierID: "ann", origin: .node("n1"), edgeIDs: ["t15", "t53"], eta: 0, etaStd: 0,
                                                 legTimes: [1, 2], legStds: [1, 1], actions: 2))
        #expect(grouped.count == 2)
    }

    @Test("the switch policy adopts only a different, meaningfully faster path, not near arrival, not flapping")
    func switchPolicy() {
        let policy = RouteSwitchPolicy()
        var state = RouteSwitchPolicy.State()
        let current = ["t12", "l23"], candidate = ["t15", "t53"]
        #expect(policy.evaluate(current: current, currentMean: 600, candidate: current, candidateMean: 500, now: 0, state: &state) == .keep(.identicalPath))
        #expect(policy.evaluate(current: current, currentMean: 600, candidate: candidate, candidateMean: 500, now: 10, state: &state) == .keep(.tooSoon))
        #expect(policy.evaluate(current: current, currentMean: 600, candidate: candidate, candidateMean: 550, now: 40, state: &state) == .keep(.gainTooSmall))
        #expect(policy.evaluate(current: current, currentMean: 25, candidate: candidate, candidateMean: 5, now: 80, state: &state) == .keep(.nearArrival))
        #expect(policy.evaluate(current: current, currentMean: 600, candidate: candidate, candidateMean: 500, now: 120, state: &state) == .adopt)
        // Going straight back to the path just abandoned is refused for two minutes.
        #expect(policy.evaluate(current: candidate, currentMean: 600, candidate: current, candidateMean: 300, now: 160, state: &state) == .keep(.recentlyAbandoned))
        #expect(policy.evaluate(current: candidate, currentMean: 600, candidate: current, candidateMean: 300, now: 260, state: &state) == .adopt)
        // A deviation reroute skips the gain check.
        var fresh = RouteSwitchPolicy.State()
        #expect(policy.evaluate(current: current, currentMean: 600, candidate: candidate, candidateMean: 590, now: 0, state: &fresh, bypassGain: true) == .adopt)
    }
}
