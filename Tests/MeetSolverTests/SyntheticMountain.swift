import Foundation
import MountainGraph
@testable import MeetSolver

/// Synthetic resorts built the canonical way, with the station rendezvous
/// overlay, cached per (seed, size) for the test process.
enum SyntheticMountain {
    private static let cache = GraphCache()

    static func graph(seed: UInt64, size: Int = 1) throws -> MountainGraph {
        if let graph = cache.graph(seed: seed, size: size) { return graph }
        let osm = try OSMData(overpassJSON: SyntheticResort(seed: seed, size: size).overpassJSON())
        let parameters = BuildParameters(resortID: "synthetic-\(seed)", manifestVersion: 1, snapshotDate: "2026-01-01")
        let base = try GraphBuilder.build(osm: osm, parameters: parameters).graph
        let manifest = CanonicalManifest(rendezvousPoints: RendezvousReview.stations(for: base).map(\.point))
        let graph = try GraphBuilder.build(osm: osm, manifest: manifest, parameters: parameters).graph
        cache.store(graph, seed: seed, size: size)
        return graph
    }

    static let identity = TestMountain.identity

    static func solver(_ graph: MountainGraph, canonical: Bool = true, now: Double = TestMountain.wednesdayTen,
                       skiers: [Skier]? = nil, conditions: ResortConditions = TestMountain.calm) -> MeetSolver {
        let dataset = MeetDataset(graph: graph, identity: canonical ? identity : nil)
        let status = canonical ? MountainStatus(resortID: graph.resortID, datasetVersion: identity, observedAt: now - 60,
                                                expiresAt: now + 3000, source: "test", edges: [:]) : nil
        return MeetSolver(dataset: dataset, status: status, conditions: conditions,
                          skiers: skiers ?? [Skier(id: "ann", profile: .preset(.advanced)), Skier(id: "bob", profile: .preset(.expert))],
                          now: now, cache: nil)
    }

    /// Two rendezvous nodes as starts: the one from which a skier reaches
    /// the most of the resort, and the one of the next best-connected
    /// quarter furthest from it.
    static func farApartStarts(_ graph: MountainGraph) -> (String, String) {
        let solver = solver(graph, canonical: false)
        let context = solver.makeContext(for: "ann")!
        var reach: [(node: String, count: Int, coordinate: Coordinate)] = []
        for point in graph.rendezvousPoints {
            guard case let .success(start) = solver.resolve(SkierStart(skierID: "ann", origin: .node(point.nodeId)), context: context) else { continue }
            let (times, _) = SingleCriterionDijkstra.fastest(context, start)
            reach.append((point.nodeId, times.filter(\.isFinite).count, graph.node(id: point.nodeId)!.coordinate))
        }
        reach.sort { $0.count != $1.count ? $0.count > $1.count : $0.node < $1.node }
        let first = reach[0]
        let pool = reach.prefix(max(2, reach.count / 4)).dropFirst()
        let second = pool.max { Geo.distance($0.coordinate, first.coordinate) < Geo.distance($1.coordinate, first.coordinate) }!
        return (first.node, second.node)
    }

    private final class GraphCache: @unchecked Sendable {
        private let lock = NSLock()
        private var graphs: [String: MountainGraph] = [:]
        func graph(seed: UInt64, size: Int) -> MountainGraph? {
            lock.lock(); defer { lock.unlock() }
            return graphs["\(seed)x\(size)"]
        }
        func store(_ graph: MountainGraph, seed: UInt64, size: Int) {
            lock.lock(); defer { lock.unlock() }
            graphs["\(seed)x\(size)"] = graph
        }
    }
}

/// A small deterministic generator for property tests.
struct TestRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// An hourly forecast from `start` until `end` with holes in it: each hour is
    /// present with chance `kept`, some steps are longer than an hour, and some
    /// hours are stormy. Draws in a fixed order, so a seed always gives the same one.
    mutating func gappyForecast(from start: Double, until end: Double, kept: Double, temperature: (Double, Double),
                                storm: (chance: Double, wind: (Double, Double)), calmWind: (Double, Double),
                                visibility: (Double, Double), longStep: (chance: Double, hours: (Double, Double))) -> [HourlySample] {
        var hourly: [HourlySample] = []
        var time = start
        while time < end {
            if chance(kept) {
                hourly.append(HourlySample(time: time, reading: WeatherReading(
                    temperature: uniform(temperature.0, temperature.1),
                    wind: chance(storm.chance) ? uniform(storm.wind.0, storm.wind.1) : uniform(calmWind.0, calmWind.1),
                    visibility: uniform(visibility.0, visibility.1), cloudCover: uniform(0, 100))))
            }
            time += 3600 * (chance(longStep.chance) ? uniform(longStep.hours.0, longStep.hours.1) : 1)
        }
        return hourly
    }
}
