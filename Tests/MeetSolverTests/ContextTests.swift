import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// One context per skier, built only by the solver: each reads its own
/// history, and everything outside the solver sees the same times.
@Suite("Per-skier contexts")
struct ContextTests {
    static func mountain() -> TestMountain {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(2, x: 6, y: -6)
        m.run("t12", 1, 2, length: 1400, difficulty: .blue)
        m.meetAt(2)
        return m
    }

    @Test("one skier's learned speed never changes the other's time")
    func historyStaysWithItsSkier() throws {
        let learned = SpeedHistory([EdgeSpeedObservation(edgeID: "t12", observationCount: 5, speed: 10, speedVariance: 1)])
        let solver = Self.mountain().solver(skiers: [Skier(id: "ann", profile: .preset(.intermediate), history: learned),
                                                     Skier(id: "bob", profile: .preset(.intermediate))])
        let ann = try #require(solver.makeContext(for: "ann")), bob = try #require(solver.makeContext(for: "bob"))
        let edge = Int(ann.environment.graph.edgeIndex["t12"]!)
        let annCost = try #require(ann.cost(of: edge, at: ann.moment(at: 0)))
        let bobCost = try #require(bob.cost(of: edge, at: bob.moment(at: 0)))
        #expect(abs(annCost.time - 140) < 1e-9)                 // learned 10 m/s
        #expect(abs(annCost.std - 140 / 10 * 1) < 1e-9)         // delta method: τ/v·σv
        #expect(abs(bobCost.time - 280) < 1e-9)                 // profile blue 5 m/s
        #expect(abs(bobCost.std - 0.15 * 280) < 1e-9)
        #expect(solver.makeContext(for: "cat") == nil)
    }

    @Test("history of too few observations or other equipment is ignored")
    func untrustedHistory() throws {
        let rows = [EdgeSpeedObservation(edgeID: "t12", observationCount: 2, speed: 10),
                    EdgeSpeedObservation(edgeID: "t12", conditionsFingerprint: "default", equipmentKey: "ski-9", observationCount: 9, speed: 12)]
        let solver = Self.mountain().solver(skiers: [Skier(id: "ann", profile: .preset(.intermediate), history: SpeedHistory(rows)),
                                                     Skier(id: "bob", profile: .preset(.intermediate))])
        let ann = try #require(solver.makeContext(for: "ann"))
        let edge = Int(ann.environment.graph.edgeIndex["t12"]!)
        #expect(abs(try #require(ann.cost(of: edge, at: ann.moment(at: 0))).time - 280) < 1e-9)
        var skis = SkierProfile.preset(.intermediate, equipment: Equipment(preferredSkiID: "ski-9"))
        skis.equipment = Equipment(preferredSkiID: "ski-9")
        let onSkis = Self.mountain().solver(skiers: [Skier(id: "ann", profile: skis, history: SpeedHistory(rows))])
        let context = try #require(onSkis.makeContext(for: "ann"))
        #expect(abs(try #require(context.cost(of: edge, at: context.moment(at: 0))).time - 1400.0 / 12) < 1e-9)
    }

    @Test("a directed start charges only the remainder of its edge")
    func directedStart() throws {
        let solver = Self.mountain().solver()
        let full = try #require(solver.solve(.ann(1), .bob(2)).value)
        let partway = try #require(solver.solve(SkierStart(skierID: "ann", origin: .edge("t12", fraction: 0.257)), .bob(2)).value)
        #expect(partway.primary.routeA.origin == .edge("t12", fraction: 0.25))
        #expect(abs(partway.primary.routeA.eta - 0.75 * full.primary.routeA.eta) < 1e-9)
        #expect(abs(partway.primary.routeA.etaStd - 0.75 * full.primary.routeA.etaStd) < 1e-9)
        #expect(partway.primary.routeA.edgeIDs == ["t12"])
    }

    @Test("GPS accuracy widens the uncertainty of the start")
    func gpsVariance() throws {
        let solver = Self.mountain().solver()
        let sharp = try #require(solver.solve(.ann(1), .bob(2)).value).primary.routeA
        let vague = try #require(solver.solve(SkierStart(skierID: "ann", origin: .node("n1"), accuracyMeters: 30), .bob(2)).value).primary.routeA
        #expect(abs(vague.eta - sharp.eta) < 1e-9)
        let sigma0 = 30 / 1.5
        #expect(abs(vague.etaStd * vague.etaStd - (sharp.etaStd * sharp.etaStd + sigma0 * sigma0)) < 1e-6)
    }

    @Test("the same instant solved on machines in different time zones gives the same result")
    func mountainLocalTime() throws {
        let m = Self.mountain()
        let before = ProcessInfo.processInfo.environment["TZ"]
        let first = try #require(m.solver().solve(.ann(1), .bob(2)).value)
        setenv("TZ", "Pacific/Kiritimati", 1); tzset()
        defer { if let before { setenv("TZ", before, 1) } else { unsetenv("TZ") }; tzset() }
        let second = try #require(m.solver().solve(.ann(1), .bob(2)).value)
        #expect(first == second)
    }
}
