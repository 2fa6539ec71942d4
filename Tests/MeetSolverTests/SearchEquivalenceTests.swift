import Digest
import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// The search and the ranking give exactly the answers recorded from the
/// first, plainest implementation, on many random synthetic resorts, starts,
/// skiers, forecasts and times of day: every label of both skiers' forests
/// (figures, predecessors, evictions, the order of each node's set) and the
/// whole solve result. Any change that makes them faster must leave these
/// digests as they are.
@Suite("Search equivalence")
struct SearchEquivalenceTests {
    static let cases = 96

    static let forestDigest = "07854a2e1370b0999ea6156c8abe3e1101de09b7ffbeb4fc4864c68e83f4d089"
    static let resultDigest = "d715cb3f8b294721ed1ef1e8c6e79ece94889f20dab488dd42e394f7f0011984"

    struct Case {
        var solver: MeetSolver
        var a: SkierStart
        var b: SkierStart
        var mode: SolveMode
    }

    /// A random solve on one of a few synthetic resorts: any time between
    /// opening and after the lifts close, a gusty, changing forecast, any
    /// two skill levels, node or in-edge starts, with or without GPS accuracy.
    static func randomCase(_ random: inout TestRandom) throws -> Case {
        let size = random.chance(0.25) ? 3 : 1
        let graph = try SyntheticMountain.graph(seed: 11 + random.next() % 4, size: size)
        let now = TestMountain.wednesdayTen + random.uniform(-1.5, 6) * 3600
        let hourly = random.gappyForecast(from: now - random.uniform(0, 3) * 3600, until: now + 8 * 3600, kept: 0.9,
                                          temperature: (-18, 4), storm: (0.2, (40, 90)), calmWind: (0, 40),
                                          visibility: (0.5, 15), longStep: (0.15, (1.2, 3)))
        let conditions = ResortConditions(
            current: WeatherReading(temperature: random.uniform(-12, 2), wind: random.uniform(0, 50), visibility: 10, cloudCover: 30),
            freshSnow24h: random.chance(0.5) ? random.uniform(0, 25) : 0, stationElevation: random.chance(0.5) ? 1800 : nil,
            hourly: random.chance(0.8) ? hourly : [], utcOffsetSeconds: TestMountain.utcOffset)
        let levels: [SkillLevel] = [.beginner, .intermediate, .advanced, .expert]
        let skiers = [Skier(id: "ann", profile: .preset(levels[1 + Int(random.next() % 3)])),
                      Skier(id: "bob", profile: .preset(levels[Int(random.next() % 4)]))]
        let canonical = random.chance(0.9)
        let solver = SyntheticMountain.solver(graph, canonical: canonical, now: now, skiers: skiers, conditions: conditions)
        func start(_ skier: String) -> SkierStart {
            let accuracy: Double? = random.chance(0.5) ? random.uniform(3, 40) : nil
            if random.chance(0.2) {
                let edge = graph.edges[Int(random.next() % UInt64(graph.edges.count))]
                return SkierStart(skierID: skier, origin: .edge(edge.id, fraction: random.uniform(0, 1)), accuracyMeters: accuracy)
            }
            let point = graph.rendezvousPoints[Int(random.next() % UInt64(graph.rendezvousPoints.count))]
            let node = random.chance(0.9) ? point.nodeId : graph.nodes[Int(random.next() % UInt64(graph.nodes.count))].id
            return SkierStart(skierID: skier, origin: .node(node), accuracyMeters: accuracy)
        }
        return Case(solver: solver, a: start("ann"), b: start("bob"), mode: canonical ? .live : .rehearsal)
    }

    /// Every label in creation order and every node's standing set, in slot order.
    static func dump(_ forest: LabelForest, into text: inout String) {
        for (id, l) in forest.labels.enumerated() {
            text += "\(id):\(l.time.bitPattern),\(l.done.bitPattern),\(l.current.bitPattern),\(l.actions),\(l.actionKey),"
                + "\(l.predecessor),\(l.via),\(l.node),\(forest.evicted[id] ? 1 : 0);"
        }
        for node in 0..<forest.counts.count where forest.counts[node] > 0 {
            text += "n\(node):\(forest.labels(at: Int32(node)).map(String.init).joined(separator: ","));"
        }
    }

    @Test("forests and results equal those of the plain search (96 random solves)")
    func equalToPlainSearch() throws {
        var random = TestRandom(seed: 20_260_301)
        var forests = "", results = ""
        var solved = 0, labels = 0, overflowing = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for index in 0..<Self.cases {
            let c = try Self.randomCase(&random)
            for start in [c.a, c.b] {
                guard let context = c.solver.makeContext(for: start.skierID),
                      case let .success(resolved) = c.solver.resolve(start, context: context) else {
                    forests += "#\(index) unresolved;"
                    continue
                }
                let forest = LabelSearch.run(context, from: resolved, rules: .strict)
                labels += forest.labels.count
                overflowing += forest.counts.filter { $0 == LabelForest.capacity }.count
                forests += "#\(index) \(start.skierID):"
                Self.dump(forest, into: &forests)
            }
            switch c.solver.solve(c.a, c.b, mode: c.mode) {
            case let .success(result):
                solved += 1
                results += "#\(index):" + String(decoding: try encoder.encode(result), as: UTF8.self)
            case let .failure(failure):
                results += "#\(index): \(failure)"
            }
        }
        let forestSHA = SHA256.hex(forests), resultSHA = SHA256.hex(results)
        print("search equivalence: \(solved) of \(Self.cases) solved, \(labels) labels, \(overflowing) full nodes; forests \(forestSHA), results \(resultSHA)")
        #expect(solved > Self.cases / 3, "too few cases reach a result to compare")
        #expect(overflowing > 100, "too few nodes fill their eight places to exercise overflow")
        #expect(forestSHA == Self.forestDigest)
        #expect(resultSHA == Self.resultDigest)
    }
}
