import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// The seed's reliability scenarios: fairness picks a stop, never a detour;
/// a surer route wins when means tie.
@Suite("Reliability scoring: fairness and uncertainty")
struct FairnessTests {
    /// ann at n1, bob at n2. Stop n3: ann 100 s, bob 300 s; a longer loop
    /// n1→n4→n3 would bring ann there in 290 s. Stop n5 (optional): ann 200 s, bob 210 s.
    static func mountain(withBalancingStop: Bool) -> TestMountain {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(2, x: 10, y: 0); m.node(3, x: 4, y: -4); m.node(4, x: 0, y: -6)
        m.run("t1", 1, 3, length: 700)          // 100 s at 7 m/s (green)
        m.run("t2", 2, 3, length: 2100)         // 300 s
        m.run("t3", 1, 4, length: 700)          // 100 s
        m.run("t4", 4, 3, length: 1330)         // 190 s
        m.meetAt(3)
        if withBalancingStop {
            m.node(5, x: 5, y: 5)
            m.run("t5", 1, 5, length: 1400)     // 200 s
            m.run("t6", 2, 5, length: 1470)     // 210 s
            m.meetAt(5)
        }
        return m
    }

    @Test("a stop that balances arrival beats one where the faster skier waits long")
    func balancingStopWins() throws {
        let solver = Self.mountain(withBalancingStop: true).solver()
        let result = try #require(solver.solve(.ann(1), .bob(2)).value)
        #expect(result.primary.rendezvousPointID == "rp5")
        #expect(abs(result.primary.routeA.eta - 200) < 1e-6)
        #expect(abs(result.primary.routeB.eta - 210) < 1e-6)
        #expect(result.alternates.map(\.rendezvousPointID) == ["rp3"])
        #expect(result.primary.score < result.alternates[0].score)
    }

    @Test("fairness never makes the faster skier take a detour to arrive later")
    func noDetour() throws {
        let solver = Self.mountain(withBalancingStop: false).solver()
        let result = try #require(solver.solve(.ann(1), .bob(2)).value)
        let option = result.primary
        #expect(option.rendezvousPointID == "rp3")
        #expect(option.routeA.edgeIDs == ["t1"])
        #expect(abs(option.routeA.eta - 100) < 1e-6)

        // The loop exists and would score better on the formula alone: it is
        // excluded because the fast route beats it on every criterion.
        let loop = try #require(solver.metrics(for: ["t3", "t4"], skierID: "ann", origin: .node("n1")))
        #expect(abs(loop.mean - 290) < 1e-6)
        let alpha = option.alpha
        let loopScore = max(loop.mean, option.routeB.eta) + alpha * abs(loop.mean - option.routeB.eta)
            + 0.5 * (loop.std * loop.std + option.routeB.etaStd * option.routeB.etaStd).squareRoot()
        #expect(loopScore < option.score)
    }

    /// Two stops both skiers reach in exactly 200 s; the route to one of them
    /// is uncertain for ann (a learned speed with a wide spread).
    static func tiedMeans(uncertainEdge: String) -> MeetSolver {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(2, x: 10, y: 0); m.node(6, x: 5, y: -8); m.node(7, x: 5, y: 8)
        m.run("t61", 1, 6, length: 1400); m.run("t62", 2, 6, length: 1400)
        m.run("t71", 1, 7, length: 1400); m.run("t72", 2, 7, length: 1400)
        m.meetAt(6); m.meetAt(7)
        let history = SpeedHistory([EdgeSpeedObservation(edgeID: uncertainEdge, observationCount: 12, speed: 7.0, speedVariance: 9.0)])
        return m.solver(skiers: [Skier(id: "ann", profile: .preset(.intermediate), history: history),
                                 Skier(id: "bob", profile: .preset(.intermediate))])
    }

    @Test("when the means tie, the surer route wins", arguments: [("t71", "rp6"), ("t61", "rp7")])
    func surerRouteWins(uncertainEdge: String, expected: String) throws {
        let result = try #require(Self.tiedMeans(uncertainEdge: uncertainEdge).solve(.ann(1), .bob(2)).value)
        #expect(result.primary.rendezvousPointID == expected)
        #expect(abs(result.primary.routeA.eta - result.alternates[0].routeA.eta) < 1e-6)
        #expect(result.primary.uncertainty < result.alternates[0].uncertainty)
    }

    @Test("equal candidates are ranked by stable id, the same way every time")
    func deterministicSelection() throws {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(2, x: 10, y: 0); m.node(8, x: 5, y: 8); m.node(9, x: 5, y: -8)
        m.run("t81", 1, 8, length: 1400); m.run("t82", 2, 8, length: 1400)
        m.run("t91", 1, 9, length: 1400); m.run("t92", 2, 9, length: 1400)
        m.meetAt(9); m.meetAt(8)
        let first = try #require(m.solver().solve(.ann(1), .bob(2)).value)
        #expect(first.primary.rendezvousPointID == "rp8")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for _ in 0..<3 {
            let again = try #require(m.solver().solve(.ann(1), .bob(2)).value)
            #expect(try encoder.encode(again) == encoder.encode(first))
        }
    }
}
