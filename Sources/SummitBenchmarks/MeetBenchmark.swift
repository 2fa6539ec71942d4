import Foundation
import Summit
import MeetSolver
import MountainGraph
import Postgres

/// `summit bench meet`: one meet on the same graph three ways, side by side.
///
///   Summit      the full strict solve: both per-skier Pareto-label searches
///               (time-dependent, up to eight labels per node), the joint
///               choice at every rendezvous point, ranking and alternates
///   floor       a plain single-criterion time-dependent Dijkstra from each
///               start on the same edge times, and the min-max over the catalog
///   pgRouting   pgr_dijkstraCost one-to-many from both starts over the same
///               edges (each skier's edge times at the solve instant as
///               costs) and a SQL min-max over the candidates
///
/// Inputs: synthetic resorts at the given sizes and the largest real extract.
public struct MeetBenchmark: Sendable {
    public struct Input: Sendable {
        public var name: String
        public var graph: MountainGraph
        public var utcOffset: Int
    }

    public struct Measurement: Encodable, Sendable {
        public var input: String
        public var nodes: Int
        public var edges: Int
        public var rendezvousPoints: Int
        public var summitMilliseconds: Double
        public var floorMilliseconds: Double
        public var pgRoutingMilliseconds: Double
        public var summitRendezvous: String
        public var floorRendezvous: String
        public var pgRoutingRendezvous: String
        public var labelsPerReachedNode: Double

        public var summitOverFloor: Double { summitMilliseconds / floorMilliseconds }
        public var pgRoutingOverSummit: Double { pgRoutingMilliseconds / summitMilliseconds }

        enum CodingKeys: String, CodingKey {
            case input, nodes, edges
            case rendezvousPoints = "rendezvous_points"
            case summitMilliseconds = "summit_ms"
            case floorMilliseconds = "floor_ms"
            case pgRoutingMilliseconds = "pgrouting_ms"
            case summitRendezvous = "summit_rendezvous"
            case floorRendezvous = "floor_rendezvous"
            case pgRoutingRendezvous = "pgrouting_rendezvous"
            case labelsPerReachedNode = "labels_per_reached_node"
            case summitOverFloor = "summit_over_floor"
            case pgRoutingOverSummit = "pgrouting_over_summit"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(input, forKey: .input)
            try c.encode(nodes, forKey: .nodes)
            try c.encode(edges, forKey: .edges)
            try c.encode(rendezvousPoints, forKey: .rendezvousPoints)
            try c.encode(summitMilliseconds, forKey: .summitMilliseconds)
            try c.encode(floorMilliseconds, forKey: .floorMilliseconds)
            try c.encode(pgRoutingMilliseconds, forKey: .pgRoutingMilliseconds)
            try c.encode(summitRendezvous, forKey: .summitRendezvous)
            try c.encode(floorRendezvous, forKey: .floorRendezvous)
            try c.encode(pgRoutingRendezvous, forKey: .pgRoutingRendezvous)
            try c.encode(labelsPerReachedNode, forKey: .labelsPerReachedNode)
            try c.encode(summitOverFloor, forKey: .summitOverFloor)
            try c.encode(pgRoutingOverSummit, forKey: .pgRoutingOverSummit)
        }
    }

    let inputs: [Input]
    let runs: Int

    public init(inputs: [Input], runs: Int) {
        self.inputs = inputs
        self.runs = runs
    }

    /// A synthetic resort built canonically, with lift stations as its rendezvous catalog.
    public static func synthetic(seed: UInt64, size: Int) throws -> Input {
        let osm = try OSMData(overpassJSON: SyntheticResort(seed: seed, size: size).overpassJSON())
        let graph = try catalogued(osm: osm, resortID: "synthetic-\(size)x", elevation: nil, options: BuildOptions())
        return Input(name: "synthetic \(size)x", graph: graph, utcOffset: 3600)
    }

    /// Every real extract in `folder`, built as an operator would before
    /// review (connector proposals accepted, DEM where it covers): the one
    /// with the most edges.
    static func largestReal(in folder: URL, progress: (String) -> Void) throws -> Input? {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        let dem = folder.appendingPathComponent("dem")
        let tiles = ((try? FileManager.default.contentsOfDirectory(at: dem, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.lowercased().contains(".hgt") }.sorted { $0.path < $1.path }
        let elevation = try tiles.isEmpty ? nil : LayeredElevation(tiles.map {
            try SRTMTile(fileName: $0.lastPathComponent, bytes: Array(try Data(contentsOf: $0)))
        })
        var best: Input?
        for file in files.filter({ $0.lastPathComponent.hasSuffix(".ski.osm.json") }).sorted(by: { $0.path < $1.path }) {
            progress("building \(file.lastPathComponent)…")
            let osm = try OSMData(overpassJSON: Array(try Data(contentsOf: file)))
            let connectors = ConnectorReview.accept(ConnectorReview.propose(osm: osm, elevation: elevation))
            let graph = try catalogued(osm: osm, resortID: String(file.lastPathComponent.prefix { $0 != "-" }), elevation: elevation,
                                       options: BuildOptions(missingElevation: .assumeFlat), connectors: connectors)
            let centre = MeetDataset(graph: graph, identity: nil).location
            let input = Input(name: file.lastPathComponent.replacingOccurrences(of: ".ski.osm.json", with: ""), graph: graph,
                              utcOffset: Int((centre.lon / 15).rounded()) * 3600)
            if input.graph.edges.count > best?.graph.edges.count ?? -1 { best = input }
        }
        return best
    }

    static func catalogued(osm: OSMData, resortID: String, elevation: (any ElevationSource)?, options: BuildOptions,
                           connectors: [CanonicalConnector] = []) throws -> MountainGraph {
        let parameters = BuildParameters(resortID: resortID, manifestVersion: 1, snapshotDate: "2026-01-01")
        let base = try GraphBuilder.build(osm: osm, manifest: CanonicalManifest(connectors: connectors), parameters: parameters,
                                          elevation: elevation, options: options).graph
        let manifest = CanonicalManifest(rendezvousPoints: RendezvousReview.stations(for: base).map(\.point), connectors: connectors)
        return try GraphBuilder.build(osm: osm, manifest: manifest, parameters: parameters, elevation: elevation, options: options).graph
    }

    /// 10:00 resort time on Wednesday 2026-01-14.
    static func morning(utcOffset: Int) -> Double { 1_768_384_800 - Double(utcOffset) }

    public func run(on database: PostgresConfiguration, progress: @Sendable (String) -> Void) async throws -> [Measurement] {
        try await PostgresConnection.withConnection(database) { db in
            _ = try await db.simpleQuery("create extension if not exists pgrouting cascade")
            var results: [Measurement] = []
            for input in inputs {
                progress("\(input.name): \(input.graph.nodes.count) nodes, \(input.graph.edges.count) edges, "
                         + "\(input.graph.rendezvousPoints.count) rendezvous points")
                results.append(try await measure(input, db, progress))
            }
            return results
        }
    }

    private func measure(_ input: Input, _ db: PostgresConnection, _ progress: @Sendable (String) -> Void) async throws -> Measurement {
        let graph = input.graph
        let now = Self.morning(utcOffset: input.utcOffset)
        let identity = DatasetVersion(manifestVersion: 1, graphVersion: "v15", contentSHA256: String(repeating: "0", count: 64))
        let status = MountainStatus(resortID: graph.resortID, datasetVersion: identity, observedAt: now - 60, expiresAt: now + 3600,
                                    source: "bench", edges: [:])
        let conditions = ResortConditions(current: WeatherReading(temperature: -4, wind: 15, visibility: 10, cloudCover: 40),
                                          freshSnow24h: 2, utcOffsetSeconds: input.utcOffset)
        let solver = MeetSolver(dataset: MeetDataset(graph: graph, identity: identity), status: status, conditions: conditions,
                                skiers: [Skier(id: "ann", profile: .preset(.advanced)), Skier(id: "bob", profile: .preset(.expert))],
                                now: now, cache: nil)
        let (a, b) = try starts(solver)
        let startA = SkierStart(skierID: "ann", origin: .node(a)), startB = SkierStart(skierID: "bob", origin: .node(b))

        let clock = ContinuousClock()
        func median(_ body: () throws -> Void) rethrows -> Double {
            var samples: [Double] = []
            for _ in 0..<runs {
                let started = clock.now
                try body()
                let elapsed = clock.now - started
                samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
            return samples.sorted()[samples.count / 2]
        }

        var summit: MeetingResult?
        _ = solver.solve(startA, startB) // warm-up
        let summitMilliseconds = median { summit = solver.solve(startA, startB).value }
        var floor: SingleCriterionDijkstra.Outcome?
        let floorMilliseconds = median { floor = SingleCriterionDijkstra.solve(solver, startA, startB) }
        let labels = solver.labelsPerReachedNode(from: startA)

        // pgRouting: the same edges, each skier's time at the solve instant as its cost.
        let costs = solver.staticCosts(skierIDs: ["ann", "bob"])
        _ = try await db.simpleQuery("""
            drop table if exists bench_meet_edges, bench_meet_candidates;
            create table bench_meet_edges (id bigint primary key, source bigint not null, target bigint not null,
                                           cost_a float8 not null, cost_b float8 not null);
            create table bench_meet_candidates (node bigint primary key, rendezvous text not null);
            """)
        let rows = costs.map { edge -> [any PostgresEncodable] in
            [Int64(edge.index + 1), Int64(edge.source + 1), Int64(edge.target + 1), edge.costs[0] ?? -1, edge.costs[1] ?? -1]
        }
        _ = try await db.copy(into: "bench_meet_edges", columns: ["id", "source", "target", "cost_a", "cost_b"], rows: rows)
        var seen = Set<Int>()
        let candidates = graph.rendezvousPoints.compactMap { point -> [any PostgresEncodable]? in
            guard let node = solver.nodeIndex(of: point.nodeId), seen.insert(node).inserted else { return nil }
            return [Int64(node + 1), point.id]
        }
        _ = try await db.copy(into: "bench_meet_candidates", columns: ["node", "rendezvous"], rows: candidates)
        _ = try await db.simpleQuery("analyze bench_meet_edges; analyze bench_meet_candidates")
        let sourceA = Int64(solver.nodeIndex(of: a)! + 1), sourceB = Int64(solver.nodeIndex(of: b)! + 1)
        let query: PostgresQuery = """
            with targets as (select array_agg(node order by node) as nodes from bench_meet_candidates),
            a as (select end_vid, agg_cost from pgr_dijkstraCost('select id, source, target, cost_a as cost from bench_meet_edges'::text,
                                                                \(sourceA)::bigint, (select nodes from targets), true)),
            b as (select end_vid, agg_cost from pgr_dijkstraCost('select id, source, target, cost_b as cost from bench_meet_edges'::text,
                                                                \(sourceB)::bigint, (select nodes from targets), true))
            select c.rendezvous from a join b using (end_vid) join bench_meet_candidates c on c.node = a.end_vid
            order by greatest(a.agg_cost, b.agg_cost), a.end_vid limit 1
            """
        _ = try await db.query(query) // warm-up
        var pgRouting = ""
        var samples: [Double] = []
        for _ in 0..<runs {
            let started = clock.now
            pgRouting = try await db.query(query).first(as: String.self) ?? "none"
            let elapsed = clock.now - started
            samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        let pgRoutingMilliseconds = samples.sorted()[samples.count / 2]
        _ = try await db.simpleQuery("drop table bench_meet_edges, bench_meet_candidates")
        progress(String(format: "  Summit %.2f ms, floor %.2f ms, pgRouting %.2f ms", summitMilliseconds, floorMilliseconds, pgRoutingMilliseconds))
        return Measurement(input: input.name, nodes: graph.nodes.count, edges: graph.edges.count, rendezvousPoints: graph.rendezvousPoints.count,
                           summitMilliseconds: summitMilliseconds, floorMilliseconds: floorMilliseconds,
                           pgRoutingMilliseconds: pgRoutingMilliseconds,
                           summitRendezvous: summit?.primary.rendezvousPointID ?? "none",
                           floorRendezvous: floor?.rendezvousPointID ?? "none", pgRoutingRendezvous: pgRouting,
                           labelsPerReachedNode: labels)
    }

    /// Two starts far apart in the best-connected part of the resort: among
    /// up to 24 catalog nodes spread through the catalog, the one reaching
    /// most of the graph, and the furthest of those reaching at least half as much.
    private func starts(_ solver: MeetSolver) throws -> (String, String) {
        let points = solver.dataset.graph.rendezvousPoints
        guard points.count >= 2 else { throw CLIError("the benchmark graph has fewer than two rendezvous points", fix: "use a larger resort") }
        let step = max(1, points.count / 24)
        var reach: [(node: String, count: Int)] = []
        for index in stride(from: 0, to: points.count, by: step) {
            let node = points[index].nodeId
            reach.append((node, solver.reachableCount(from: SkierStart(skierID: "ann", origin: .node(node)))))
        }
        reach.sort { $0.count != $1.count ? $0.count > $1.count : $0.node < $1.node }
        let first = reach[0]
        let graph = solver.dataset.graph
        let origin = graph.node(id: first.node)!.coordinate
        let second = reach.dropFirst().filter { $0.count * 2 >= first.count }
            .max { Geo.distance(graph.node(id: $0.node)!.coordinate, origin) < Geo.distance(graph.node(id: $1.node)!.coordinate, origin) }
        return (first.node, (second ?? reach[1]).node)
    }

    public static func table(_ results: [Measurement], configuration: String) -> String {
        func ms(_ value: Double) -> String { value < 10 ? String(format: "%.2f ms", value) : String(format: "%.1f ms", value) }
        func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }
        let header = ["input", "nodes", "edges", "stops", "Summit full solve", "plain Dijkstra pair", "pgRouting dijkstraCost",
                      "Summit/floor", "pgRouting/Summit", "labels/node"]
        let rows = results.map { r in
            [r.input, String(r.nodes), String(r.edges), String(r.rendezvousPoints), ms(r.summitMilliseconds), ms(r.floorMilliseconds),
             ms(r.pgRoutingMilliseconds), ratio(r.summitOverFloor), ratio(r.pgRoutingOverSummit), String(format: "%.2f", r.labelsPerReachedNode)]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let line = { (cells: [String]) in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var lines = ["Summit built \(configuration); medians"] + [line(header)] + rows.map(line)
        lines.append("")
        let faster = results.allSatisfy { $0.pgRoutingOverSummit > 1 }
        let within = results.allSatisfy { $0.summitOverFloor <= 5 }
        lines.append("target: full solve faster than pgRouting (\(faster ? "met" : "missed")) and within 5x of the plain Dijkstra floor "
                     + "(\(within ? "met" : "missed"), worst \(ratio(results.map(\.summitOverFloor).max() ?? 0)))")
        lines.append("meeting points (Summit / floor / pgRouting): "
                     + results.map { "\($0.input) \($0.summitRendezvous) / \($0.floorRendezvous) / \($0.pgRoutingRendezvous)" }.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}
