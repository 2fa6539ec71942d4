import MountainGraph

/// A review figure: how many random pairs of skiers on a built graph get a
/// meeting point from the strict solver, and why the others do not.
///
/// Positions are drawn on open runs each skier may ski (an edge by its share
/// of that length, then a point along it), with a fixed seed, for two skiers
/// of different ability, every lift open, at a fixed mid-morning instant local to the
/// resort. Each outcome is checked against plain reachability (one fastest
/// search per skier over the same open edges and gates, no fairness and no
/// uncertainty): a pair that fails must have no rendezvous point both can
/// reach, and a pair that meets must have one.
public struct MeetSample: Sendable, Equatable, Codable, CustomStringConvertible {
    public var pairs: Int
    public var met: Int
    /// Failure code → count, for the pairs that got no meeting point.
    public var failures: [String: Int]
    /// Pairs where the solver and plain reachability disagree.
    public var disagreements: Int
    public var seed: UInt64
    public var skiers: [String]
    /// The instant planned at, resort-local `HH:MM` on the sample's day.
    public var localTime: String

    public var share: Double { pairs == 0 ? 0 : Double(met) / Double(pairs) }

    public var description: String {
        let reasons = failures.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "meet sample: \(met)/\(pairs) pairs meet (\(Routability.percent(share)))"
            + (reasons.isEmpty ? "" : "; failures: \(reasons)")
            + "; \(disagreements) disagree with plain reachability"
    }

    /// Wednesday 2026-01-14, 00:00 UTC: the sample's day, a midweek day in season.
    static let day = 1_768_348_800.0

    /// - Parameter utcOffsetSeconds: the resort's offset; by default the
    ///   graph's mean longitude in whole hours, which is near enough for
    ///   lift hours and the sun at mid-morning.
    public static func run(on graph: MountainGraph, pairs: Int = 200, seed: UInt64 = 1,
                           levels: (SkillLevel, SkillLevel) = (.intermediate, .advanced),
                           localHour: Double = 10.5, utcOffsetSeconds: Int? = nil) -> MeetSample {
        let offset = utcOffsetSeconds ?? Int((MeetDataset(graph: graph, identity: nil).location.lon / 15).rounded()) * 3600
        let now = day + localHour * 3600 - Double(offset)
        let identity = DatasetVersion(manifestVersion: graph.manifestVersion, graphVersion: "v15",
                                      contentSHA256: String(repeating: "0", count: 64))
        var lifts: [String: MountainStatus.EdgeStatus] = [:]
        for edge in graph.edges where edge.kind == .lift { lifts[edge.id] = MountainStatus.EdgeStatus(isOpen: true) }
        let status = MountainStatus(resortID: graph.resortID, datasetVersion: identity, observedAt: now - 60, expiresAt: now + 3600,
                                    source: "review sample", edges: lifts)
        let conditions = ResortConditions(current: WeatherReading(temperature: -4, wind: 10, visibility: 10, cloudCover: 30),
                                          freshSnow24h: 0, utcOffsetSeconds: offset)
        let names = ["\(levels.0.rawValue) skier", "\(levels.1.rawValue) skier"]
        let solver = MeetSolver(dataset: MeetDataset(graph: graph, identity: identity), status: status, conditions: conditions,
                                skiers: [Skier(id: names[0], profile: .preset(levels.0)), Skier(id: names[1], profile: .preset(levels.1))],
                                now: now, cache: nil)
        let minutes = Int((localHour * 60).rounded())
        var sample = MeetSample(pairs: 0, met: 0, failures: [:], disagreements: 0, seed: seed, skiers: names,
                                localTime: String(format2(minutes / 60)) + ":" + format2(minutes % 60))
        // Each skier stands on an open run they may ski: an edge by its share
        // of that length, then a point along it.
        let runs = graph.edges.filter { $0.kind == .run && $0.attributes.isOpen }
        var pools: [[(run: GraphEdge, upTo: Double)]] = []
        for name in names {
            guard let context = solver.makeContext(for: name) else { continue }
            var pool: [(run: GraphEdge, upTo: Double)] = []
            var total = 0.0
            for run in runs {
                guard case .success = solver.resolve(SkierStart(skierID: name, origin: .edge(run.id, fraction: 0.5)), context: context) else { continue }
                total += run.attributes.lengthMeters
                pool.append((run, total))
            }
            pools.append(pool)
        }
        guard pools.count == 2, !pools[0].isEmpty, !pools[1].isEmpty else {
            sample.pairs = pairs
            sample.failures = pairs > 0 ? ["noOpenRun": pairs] : [:]
            return sample
        }
        var random = SeededGenerator(seed: seed)
        func position(_ skier: Int) -> SkierStart {
            let pool = pools[skier]
            let target = random.unit() * pool[pool.count - 1].upTo
            var low = 0, high = pool.count - 1
            while low < high {
                let middle = (low + high) / 2
                if pool[middle].upTo <= target { low = middle + 1 } else { high = middle }
            }
            return SkierStart(skierID: names[skier], origin: .edge(pool[low].run.id, fraction: Double(Int(random.uniform(0.05, 0.95) * 1000)) / 1000))
        }
        for _ in 0..<pairs {
            let a = position(0), b = position(1)
            sample.pairs += 1
            let outcome = solver.solve(a, b)
            let plain = SingleCriterionDijkstra.solve(solver, a, b)?.rendezvousPointID != nil
            switch outcome {
            case .success:
                sample.met += 1
                if !plain { sample.disagreements += 1 }
            case let .failure(failure):
                sample.failures[failure.code, default: 0] += 1
                if plain { sample.disagreements += 1 }
            }
        }
        return sample
    }

    private static func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
