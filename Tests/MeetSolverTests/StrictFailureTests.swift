import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// Strict solves: closures, ability gates, lift hours at arrival, status
/// freshness and the order failures are reported in. Nothing is ever relaxed
/// to produce a route.
@Suite("Strict failures")
struct StrictFailureTests {
    /// ann at n1 reaches the stop n3 over t13 (green) or, slower, t14 + t43
    /// (blue then black); bob stands at n3.
    static func mountain(greenOpen: Bool = true) -> TestMountain {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(3, x: 6, y: -6); m.node(4, x: 2, y: -8)
        m.run("t13", 1, 3, length: 2400, difficulty: .green, open: greenOpen)
        m.run("t14", 1, 4, length: 500, difficulty: .blue)
        m.run("t43", 4, 3, length: 600, difficulty: .black)
        m.meetAt(3)
        return m
    }

    @Test("a closed run is avoided when another way exists")
    func closureAvoided() throws {
        let m = Self.mountain()
        let skiers = [Skier(id: "ann", profile: .preset(.advanced)), Skier(id: "bob", profile: .preset(.advanced))]
        let open = try #require(m.solver(skiers: skiers).solve(.ann(1), .bob(3)).value)
        #expect(open.primary.routeA.edgeIDs == ["t14", "t43"])   // faster for an advanced skier
        let closed = try #require(m.solver(status: m.status(edges: ["t43": .init(isOpen: false)]), skiers: skiers).solve(.ann(1), .bob(3)).value)
        #expect(closed.primary.routeA.edgeIDs == ["t13"])
    }

    @Test("when closures cut every stop off, the answer is closures, never a route over a closed edge")
    func closures() {
        let m = Self.mountain()
        let status = m.status(edges: ["t13": .init(isOpen: false), "t14": .init(isOpen: false)])
        let skiers = [Skier(id: "ann", profile: .preset(.advanced)), Skier(id: "bob", profile: .preset(.advanced))]
        #expect(m.solver(status: status, skiers: skiers).solve(.ann(1), .bob(3)).error == .closures)
    }

    @Test("a beginner is never routed over a black run: the green is taken, or the answer is abilityGated")
    func abilityGates() throws {
        let beginners = [Skier(id: "ann", profile: .preset(.beginner)), Skier(id: "bob", profile: .preset(.beginner))]
        let withGreen = try #require(Self.mountain().solver(skiers: beginners).solve(.ann(1), .bob(3)).value)
        #expect(withGreen.primary.routeA.edgeIDs == ["t13"])
        let onlyBlack = Self.mountain(greenOpen: false).solver(skiers: beginners)
        #expect(onlyBlack.solve(.ann(1), .bob(3)).error == .abilityGated)
    }

    @Test("a glade needs glade skill")
    func gladeGate() {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(2, x: 4, y: -4)
        m.run("t12", 1, 2, length: 500, gladed: true)
        m.meetAt(2)
        let noGlades = SkierProfile.preset(.intermediate)
        var never = noGlades
        never.conditionGladed = 0
        #expect(m.solver(skiers: [Skier(id: "ann", profile: noGlades), Skier(id: "bob", profile: noGlades)]).solve(.ann(1), .bob(2)).value != nil)
        #expect(m.solver(skiers: [Skier(id: "ann", profile: never), Skier(id: "bob", profile: noGlades)]).solve(.ann(1), .bob(2)).error == .abilityGated)
    }

    /// ann at n0 skis 20 minutes to the lift base n1, then rides to the top
    /// n2 where bob waits. The lift closes at 15:45 local.
    static func lateLift() -> (TestMountain, LiftOperations) {
        var m = TestMountain()
        m.node(0, x: -8, y: 0); m.node(1, x: 0, y: 0, kind: .liftBase); m.node(2, x: 0, y: 8, kind: .liftTop)
        m.run("t01", 0, 1, length: 8400)          // 1200 s
        m.lift("l12", 1, 2, ride: 300, name: "Summit Express")
        m.meetAt(2, .liftTop)
        return (m, LiftOperations(["lift:Summit Express": LiftOperation(openHour: 8.5, closeHour: 15.75)]))
    }

    /// 2026-01-14 at a local time (UTC+1).
    static func local(_ hour: Double) -> Double { TestMountain.wednesdayTen + (hour - 10) * 3600 }

    @Test("a lift open now but closed by the time the skier reaches it is not used")
    func liftClosingAtArrival() throws {
        let (m, hours) = Self.lateLift()
        // 15:00: reaches the lift at 15:20, before closing.
        let early = try #require(m.solver(now: Self.local(15), operations: hours).solve(.ann(0), .bob(2)).value)
        #expect(early.primary.routeA.edgeIDs == ["t01", "l12"])
        // 15:40 (bucket 15:30): the lift is open, but ann reaches it at 15:50.
        #expect(m.solver(now: Self.local(15 + 40.0 / 60), operations: hours).solve(.ann(0), .bob(2)).error == .closures)
        // Before opening the lift cannot be used either.
        #expect(m.solver(now: Self.local(7.5), operations: hours).solve(.ann(0), .bob(2)).error == .closures)
    }

    @Test("the active ETA refuses an edge that can no longer be taken when reached")
    func activeETAFailsClosed() throws {
        let (m, hours) = Self.lateLift()
        let solver = m.solver(now: Self.local(15), operations: hours)
        guard case let .eta(metrics) = solver.activeETA(remaining: ["t01", "l12"], currentEdgeFraction: 0.5, skierID: "ann") else {
            Issue.record("expected an ETA at 15:00"); return
        }
        #expect(metrics.legTimes.count == 2)
        #expect(abs(metrics.legTimes[0] - 600) < 1e-6)
        let late = m.solver(now: Self.local(15 + 40.0 / 60), operations: hours)
        #expect(late.activeETA(remaining: ["t01", "l12"], currentEdgeFraction: 0.2, skierID: "ann")
                == .rerouteRequired(edgeID: "l12", reason: "the edge cannot be taken when it is reached"))
    }

    @Test("missing, expired, future-dated or foreign status makes a live meet unavailable")
    func statusMustBeFresh() {
        let m = Self.mountain()
        let now = TestMountain.wednesdayTen
        var expired = m.status()
        expired.expiresAt = now - 1
        var future = m.status()
        future.observedAt = now + 121
        var foreign = m.status()
        foreign.datasetVersion = DatasetVersion(manifestVersion: 2, graphVersion: "v15", contentSHA256: String(repeating: "cd", count: 32))
        let cases: [(MountainStatus?, String)] = [(nil, "missing"), (expired, "expired"), (future, "future"), (foreign, "identity")]
        for (status, label) in cases {
            let outcome = m.solver(status: .some(status)).solve(.ann(1), .bob(3))
            guard case .operationalStatusUnavailable? = outcome.error else {
                Issue.record("\(label): expected operationalStatusUnavailable, got \(outcome)"); continue
            }
        }
        // Observed within the two minutes of tolerated skew, and exactly at expiry.
        var skewed = m.status()
        skewed.observedAt = now + 119
        #expect(m.solver(status: .some(skewed)).solve(.ann(1), .bob(3)).value != nil)
        var atExpiry = m.status()
        atExpiry.expiresAt = now
        #expect(m.solver(status: .some(atExpiry)).solve(.ann(1), .bob(3)).error?.code == "operationalStatusUnavailable")
    }

    @Test("failures come in the spec's order")
    func failureOrder() {
        let m = Self.mountain()
        let stale = GPSFix(lat: 46, lon: 7, accuracyMeters: 5, capturedAt: TestMountain.wednesdayTen - 300, resortID: m.resortID)
        let badStart = SkierStart(skierID: "ann", origin: .fix(stale))
        // A live meet on a preview map fails first, whatever else is wrong.
        #expect(m.solver(canonical: false).solve(badStart, .bob(3)).error == .nonCanonicalDataset)
        // Then status, before the start is looked at.
        #expect(m.solver(status: .some(nil)).solve(badStart, .bob(3)).error?.code == "operationalStatusUnavailable")
        // Then starts.
        #expect(m.solver().solve(badStart, .bob(3)).error?.code == "startUnresolved")
        // Then the catalog.
        var empty = m
        empty.rendezvous = []
        #expect(empty.solver().solve(.ann(1), .bob(3)).error == .noRendezvousCatalog)
        // A rehearsal on a preview map solves, stamped as such.
        #expect(m.solver(canonical: false).solve(.ann(1), .bob(3), mode: .rehearsal).value?.solveAttempt == .nonCanonicalDataset)
        #expect(m.solver().solve(.ann(1), .bob(3)).value?.solveAttempt == .live)
    }

    @Test("no route at all is noRoute")
    func noRoute() {
        var m = Self.mountain()
        m.node(9, x: 30, y: 30)
        #expect(m.solver().solve(.ann(1), .bob(9)).error == .noRoute)
    }

    @Test("starts resolve exactly or fail: unknown ids, stale, inaccurate, foreign or far fixes")
    func startsResolveStrictly() {
        let m = Self.mountain()
        let now = TestMountain.wednesdayTen
        let onRun = Coordinate(lat: 46.0 - 0.003, lon: 7.0 + 0.0045) // halfway along t13
        func fix(_ c: Coordinate, age: Double = 5, accuracy: Double = 8, resort: String? = nil) -> SkierStart {
            SkierStart(skierID: "ann", origin: .fix(GPSFix(lat: c.lat, lon: c.lon, accuracyMeters: accuracy,
                                                           capturedAt: now - age, resortID: resort ?? m.resortID)))
        }
        let solver = m.solver()
        let resolved = solver.solve(fix(onRun), .bob(3)).value
        #expect(resolved?.primary.routeA.origin == .edge("t13", fraction: 0.5))
        #expect(resolved?.primary.routeA.edgeIDs == ["t13"])
        let bad: [(SkierStart, String)] = [
            (SkierStart(skierID: "ann", origin: .node("n404")), "unknown node"),
            (SkierStart(skierID: "ann", origin: .edge("t404", fraction: 0.5)), "unknown edge"),
            (fix(onRun, age: 75), "75 s old"),
            (fix(onRun, age: -11), "from the future"),
            (fix(onRun, accuracy: 51), "inaccurate"),
            (fix(onRun, resort: "elsewhere"), "other resort"),
            (fix(Coordinate(lat: 46.01, lon: 7.02)), "far from every edge"),
        ]
        for (start, label) in bad {
            #expect(solver.solve(start, .bob(3)).error?.code == "startUnresolved", "\(label)")
        }
    }
}
