import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// The solution cache: any change to anything a solution depends on misses.
@Suite("Solution cache")
struct CacheTests {
    static func base() -> TestMountain {
        var m = TestMountain()
        m.node(1, x: 0, y: 0); m.node(2, x: 10, y: 0); m.node(3, x: 5, y: -5, kind: .liftBase); m.node(4, x: 5, y: 5, kind: .liftTop)
        m.run("t13", 1, 3, length: 900); m.run("t23", 2, 3, length: 1000)
        m.lift("l34", 3, 4, ride: 300, name: "Chair")
        m.meetAt(3); m.meetAt(4, .liftTop)
        return m
    }

    @Test("the same inputs hit; each part of the key, changed alone, misses")
    func everyPartOfTheKeyMatters() throws {
        let cache = SolutionCache(capacity: 128)
        let m = Self.base()
        let now = TestMountain.wednesdayTen
        let ann = Skier(id: "ann", profile: .preset(.intermediate)), bob = Skier(id: "bob", profile: .preset(.advanced))
        func report(_ mountain: TestMountain = m, now: Double = now, status: MountainStatus? = nil, conditions: ResortConditions = TestMountain.calm,
                    skiers: [Skier]? = nil, operations: LiftOperations = .none, a: SkierStart = .ann(1), b: SkierStart = .bob(2)) -> SolveReport {
            MeetSolver(dataset: mountain.dataset(operations: operations), status: status ?? mountain.status(now: now), conditions: conditions,
                       skiers: skiers ?? [ann, bob], now: now, cache: cache).solveReport(a, b)
        }
        let first = report()
        #expect(!first.cacheHit)
        #expect(first.outcome.value != nil)
        #expect(report().cacheHit)
        #expect(report(now: now + 600, status: m.status(now: now)).cacheHit) // the same 15-minute bucket
        let baseKey = try #require(first.key)

        var changes: [(String, SolveReport)] = []
        var closed = m.status(now: now); closed.edges = ["t13": .init(isOpen: false)]
        changes.append(("status closes an edge (fingerprint)", report(status: closed)))
        var waiting = m.status(now: now); waiting.edges = ["l34": .init(isOpen: true, waitMinutes: 7)]
        changes.append(("live wait (fingerprint)", report(status: waiting)))
        changes.append(("next solve bucket", report(now: now + 900)))
        changes.append(("start A", report(a: .ann(2), b: .bob(1))))
        changes.append(("start accuracy", report(a: SkierStart(skierID: "ann", origin: .node("n1"), accuracyMeters: 10))))
        var slower = SkierProfile.preset(.intermediate); slower.speeds.green = 6.5
        changes.append(("profile A", report(skiers: [Skier(id: "ann", profile: slower), bob])))
        changes.append(("learned history", report(skiers: [Skier(id: "ann", profile: .preset(.intermediate), history: SpeedHistory([
            EdgeSpeedObservation(edgeID: "t13", observationCount: 1, speed: 3)])), bob])))
        changes.append(("equipment", report(skiers: [Skier(id: "ann", profile: .preset(.intermediate, equipment: Equipment(preferredSkiID: "k2"))), bob])))
        changes.append(("weather", report(conditions: ResortConditions(current: WeatherReading(temperature: -9, wind: 0, visibility: 10, cloudCover: 0), utcOffsetSeconds: 3600))))
        changes.append(("forecast", report(conditions: ResortConditions(current: TestMountain.calm.current, hourly: [
            HourlySample(time: now + 3600, reading: TestMountain.calm.current)], utcOffsetSeconds: 3600))))
        changes.append(("utc offset", report(conditions: ResortConditions(current: TestMountain.calm.current, utcOffsetSeconds: 7200))))
        changes.append(("lift hours", report(operations: LiftOperations(["lift:Chair": LiftOperation(closeHour: 16)]))))
        var renamed = m; renamed.edges[0].attributes.maxGradient = 11
        changes.append(("graph", report(renamed)))
        for (label, changed) in changes {
            #expect(!changed.cacheHit, "\(label) hit the cache")
            #expect(changed.key != baseKey, "\(label) left the key unchanged")
        }
        let identityChanged = MeetSolver(dataset: MeetDataset(graph: m.graph, identity: DatasetVersion(manifestVersion: 1, graphVersion: "v15", contentSHA256: String(repeating: "ef", count: 32)), location: TestMountain.origin),
                                         status: MountainStatus(resortID: m.resortID, datasetVersion: DatasetVersion(manifestVersion: 1, graphVersion: "v15", contentSHA256: String(repeating: "ef", count: 32)), observedAt: now - 600, expiresAt: now + 3000, source: "test", edges: [:]),
                                         conditions: TestMountain.calm, skiers: [ann, bob], now: now, cache: cache).solveReport(.ann(1), .bob(2))
        #expect(!identityChanged.cacheHit)
        #expect(report().cacheHit)
    }

    @Test("least recently used entries leave first")
    func leastRecentlyUsed() {
        let cache = SolutionCache(capacity: 2)
        func key(_ n: Int) -> SolveCacheKey {
            SolveCacheKey(graphFingerprint: "\(n)", datasetVersion: "", mode: "", startA: "", startB: "", profileA: "", profileB: "",
                          contextA: "", contextB: "", historyDigest: "", equipmentA: "", equipmentB: "", alphaTable: "")
        }
        cache.store(.failure(.noRoute), for: key(1))
        cache.store(.failure(.closures), for: key(2))
        _ = cache.value(for: key(1))
        cache.store(.failure(.abilityGated), for: key(3))
        #expect(cache.value(for: key(1)) != nil)
        #expect(cache.value(for: key(2)) == nil)
        #expect(cache.value(for: key(3)) != nil)
        #expect(SolutionCache.shared.capacity == 128)
    }
}
