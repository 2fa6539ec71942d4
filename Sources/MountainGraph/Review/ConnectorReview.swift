/// The review step's connector proposals.
///
/// Real extracts rarely share vertices between lifts and pistes, and pistes
/// often stop just short of each other or cross without a shared vertex, so
/// under the source-topology rule most of a resort is cut apart. This looks,
/// within `ConnectorLimits`, for the links a skier actually takes: off each
/// lift top onto the runs beside it, from the runs beside each lift base into
/// its queue, between stations side by side, from a run's dead end into the
/// run it stops beside, into a run's head from the run it starts beside, and
/// across where two pistes cross. An operator accepts proposals into the
/// manifest as reviewed connectors; the build itself never infers any.
public enum ConnectorReview {
    public static func propose(
        osm: OSMData, elevation: (any ElevationSource)? = nil, manifest: CanonicalManifest? = nil,
        limits: ConnectorLimits = ConnectorLimits()
    ) -> [ConnectorProposal] {
        var run = BuildRun(osm: osm, manifest: manifest,
                           parameters: BuildParameters(resortID: "review", manifestVersion: 0, snapshotDate: ""),
                           options: BuildOptions(missingElevation: .assumeFlat))
        run.classifyWays()
        run.registerVertices(elevation: elevation)
        run.assignElevations()
        run.cutEdges()
        return run.connectorProposals(limits)
    }

    /// Turns accepted proposals into manifest rows with ids from
    /// `CanonicalConnector.reviewedIDBase`, in the proposals' order.
    public static func accept(_ proposals: [ConnectorProposal], firstID: Int64 = CanonicalConnector.reviewedIDBase) -> [CanonicalConnector] {
        proposals.enumerated().map { $0.element.connector(id: firstID + Int64($0.offset)) }
    }
}

extension BuildRun {
    func connectorProposals(_ limits: ConnectorLimits) -> [ConnectorProposal] {
        let count = vertices.ids.count
        var runWays = Array(repeating: [Int](), count: count)
        var isLiftVertex = Array(repeating: false, count: count)
        for (index, way) in ways.enumerated() {
            for vertex in Set(way.vertices) {
                let v = vertices.index[vertex]!
                if way.kind == .run { runWays[v].append(index) }
                if way.kind == .lift { isLiftVertex[v] = true }
            }
        }
        // Whether a skier can go on from a vertex (it is not where every way
        // through it ends) and arrive at it (not where every way starts);
        // a way's inner vertices do both.
        var hasIn = Array(repeating: false, count: count)
        var hasOut = Array(repeating: false, count: count)
        for edge in edges {
            hasOut[edge.sourceVertex] = true
            hasIn[edge.targetVertex] = true
        }
        for (index, way) in ways.enumerated() {
            let primary = edgesOfWay[index].filter { !edges[$0].isReverseTwin }
            guard let first = primary.first, let last = primary.last else { continue }
            let (start, end) = (edges[first].sourceVertex, edges[last].targetVertex)
            for vertex in way.vertices.map({ vertices.index[$0]! }) where vertex != start && vertex != end {
                hasIn[vertex] = true
                hasOut[vertex] = true
            }
        }
        // Each lift's stations, from its primary chain in travel order.
        var bases: [(vertex: Int, way: Int)] = []
        var tops: [(vertex: Int, way: Int)] = []
        for (index, way) in ways.enumerated() where way.kind == .lift {
            let primary = edgesOfWay[index].filter { !edges[$0].isReverseTwin }
            guard let first = primary.first, let last = primary.last else { continue }
            bases.append((edges[first].sourceVertex, index))
            tops.append((edges[last].targetVertex, index))
        }
        let stationIndex = Dictionary(grouping: bases.map { ($0.vertex, true) } + tops.map { ($0.vertex, false) }, by: \.0)
        // A lift exit lands where a run goes on; an entry leaves a run where
        // skiers arrive (not at a run's very start).
        let runGrid = SpatialGrid(cell: max(limits.station, limits.runGap), vertices: vertices, include: { !runWays[$0].isEmpty })
        let stationGrid = SpatialGrid(cell: limits.station, vertices: vertices, include: { stationIndex[$0] != nil })

        var proposals: [ConnectorProposal] = []
        var seen: Set<[Int]> = []
        func add(_ kind: ConnectorProposal.Kind, _ from: Int, _ to: Int, fromWay: Int, toWay: Int, distance: Double,
                 bidirectional: Bool = false) {
            guard from != to else { return }
            // One link per pair of vertices, whichever rule found it first.
            guard seen.insert([min(from, to), max(from, to)]).inserted else { return }
            proposals.append(ConnectorProposal(
                kind: kind, fromOSMNodeID: vertices.ids[from], toOSMNodeID: vertices.ids[to], bidirectional: bidirectional,
                distanceMeters: Quantize.metres(distance), fromElevation: vertices.elevation[from],
                toElevation: vertices.elevation[to], fromWayID: ways[fromWay].id, toWayID: ways[toWay].id))
        }
        /// The nearest vertex of each run within `limit` that `accept` allows,
        /// nearest runs first, leaving out runs through `vertex` itself.
        func nearestPerRun(to vertex: Int, within limit: Double, accept: (Int) -> Bool) -> [(vertex: Int, way: Int, distance: Double)] {
            let own = Set(runWays[vertex])
            var best: [(vertex: Int, way: Int, distance: Double)] = []
            var taken: Set<Int> = own
            for (candidate, distance) in runGrid.neighbours(of: vertices.coordinates[vertex], excluding: vertex, within: limit, in: vertices)
            where accept(candidate) {
                for way in runWays[candidate] where taken.insert(way).inserted {
                    best.append((candidate, way, distance))
                }
            }
            return best
        }
        /// A station's runs within the station limit; a station with none
        /// there (a carpet on an unmapped nursery slope) takes the nearest
        /// run within the far limit.
        func nearestRuns(to station: Int, accept: (Int) -> Bool) -> [(vertex: Int, way: Int, distance: Double)] {
            let near = nearestPerRun(to: station, within: limits.station, accept: accept)
            if !near.isEmpty { return Array(near.prefix(limits.runsPerStation)) }
            return Array(nearestPerRun(to: station, within: limits.farRunGap, accept: accept).prefix(1))
        }
        let climb = limits.climb
        func elevation(_ v: Int) -> Double { vertices.elevation[v] }

        for (top, lift) in tops {
            for exit in nearestRuns(to: top, accept: { hasOut[$0] && elevation($0) <= elevation(top) + climb }) {
                add(.liftExit, top, exit.vertex, fromWay: lift, toWay: exit.way, distance: exit.distance)
            }
        }
        for (base, lift) in bases {
            for entry in nearestRuns(to: base, accept: { hasIn[$0] && elevation($0) >= elevation(base) - climb }) {
                add(.liftEntry, entry.vertex, base, fromWay: entry.way, toWay: lift, distance: entry.distance)
            }
        }
        // Stations side by side: off one lift's top into another's queue, or
        // across between two bases or two tops, both ways.
        for (station, lift) in tops + bases {
            let isTop = tops.contains { $0.vertex == station }
            for (other, distance) in stationGrid.neighbours(of: vertices.coordinates[station], excluding: station,
                                                          within: limits.station, in: vertices) {
                for (_, otherIsBase) in stationIndex[other] ?? [] {
                    guard let otherLift = (otherIsBase ? bases : tops).first(where: { $0.vertex == other })?.way, otherLift != lift else { continue }
                    if isTop && otherIsBase {
                        if elevation(other) <= elevation(station) + climb {
                            add(.liftTransfer, station, other, fromWay: lift, toWay: otherLift, distance: distance)
                        }
                    } else if isTop != otherIsBase, abs(elevation(other) - elevation(station)) <= climb, station < other {
                        add(.stationLink, station, other, fromWay: lift, toWay: otherLift, distance: distance, bidirectional: true)
                    }
                }
            }
        }
        // Dead ends and heads of runs: into (out of) the nearest runs that go
        // on from there, never into another dead end.
        for v in 0..<count where !runWays[v].isEmpty && !isLiftVertex[v] {
            // A run that stops in the open with nothing near goes on to the
            // nearest run within the far limit: open slope, skied in reality.
            func within(_ accept: (Int) -> Bool) -> [(vertex: Int, way: Int, distance: Double)] {
                let near = nearestPerRun(to: v, within: limits.runGap, accept: accept)
                return (near.isEmpty ? nearestPerRun(to: v, within: limits.farRunGap, accept: accept) : near).prefix(limits.runsPerEnd).map { $0 }
            }
            if hasIn[v] && !hasOut[v] {
                for next in within({ hasOut[$0] && elevation($0) <= elevation(v) + climb }) {
                    add(.runEnd, v, next.vertex, fromWay: runWays[v][0], toWay: next.way, distance: next.distance)
                }
            }
            if hasOut[v] && !hasIn[v] {
                for previous in within({ hasIn[$0] && elevation($0) >= elevation(v) - climb }) {
                    add(.runHead, previous.vertex, v, fromWay: previous.way, toWay: runWays[v][0], distance: previous.distance)
                }
            }
        }
        for crossing in pisteCrossings(runWays: runWays, limit: limits.crossing) {
            add(.crossing, crossing.a, crossing.b, fromWay: crossing.wayA, toWay: crossing.wayB, distance: crossing.distance,
                bidirectional: true)
        }
        return proposals.sorted {
            ($0.kind.rawValue, $0.fromOSMNodeID, $0.toOSMNodeID) < ($1.kind.rawValue, $1.fromOSMNodeID, $1.toOSMNodeID)
        }
    }

    /// Where two run ways' drawn segments cross with no vertex shared near
    /// the crossing: the vertex of each way nearest the crossing point, when
    /// those two lie within `limit` of each other. One per pair of ways and
    /// crossing vertex pair.
    func pisteCrossings(runWays: [[Int]], limit: Double) -> [(a: Int, b: Int, wayA: Int, wayB: Int, distance: Double)] {
        struct Segment { let way: Int; let from: Int; let to: Int }
        let cell = 100.0
        var segments: [Segment] = []
        var buckets: [SpatialGrid.GridKey: [Int]] = [:]
        func planar(_ c: Coordinate) -> (x: Double, y: Double) { (c.lon * 78_700, c.lat * 111_195) }
        for (index, way) in ways.enumerated() where way.kind == .run {
            let path = way.vertices.map { vertices.index[$0]! }
            for (from, to) in zip(path, path.dropFirst()) {
                let p = planar(vertices.coordinates[from]), q = planar(vertices.coordinates[to])
                let id = segments.count
                segments.append(Segment(way: index, from: from, to: to))
                for x in Int((min(p.x, q.x) / cell).rounded(.down))...Int((max(p.x, q.x) / cell).rounded(.down)) {
                    for y in Int((min(p.y, q.y) / cell).rounded(.down))...Int((max(p.y, q.y) / cell).rounded(.down)) {
                        buckets[SpatialGrid.GridKey(x: x, y: y), default: []].append(id)
                    }
                }
            }
        }
        var found: [(a: Int, b: Int, wayA: Int, wayB: Int, distance: Double)] = []
        var pairs: Set<[Int]> = []
        for key in buckets.keys.sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) {
            let members = buckets[key]!
            for i in members.indices {
                for j in members.indices where j > i {
                    let s = segments[members[i]], t = segments[members[j]]
                    guard s.way != t.way, runWays[s.from].allSatisfy({ $0 != t.way }), runWays[s.to].allSatisfy({ $0 != t.way }),
                          runWays[t.from].allSatisfy({ $0 != s.way }), runWays[t.to].allSatisfy({ $0 != s.way }) else { continue }
                    let p1 = planar(vertices.coordinates[s.from]), p2 = planar(vertices.coordinates[s.to])
                    let q1 = planar(vertices.coordinates[t.from]), q2 = planar(vertices.coordinates[t.to])
                    let d = (p2.x - p1.x) * (q2.y - q1.y) - (p2.y - p1.y) * (q2.x - q1.x)
                    guard d != 0 else { continue }
                    let u = ((q1.x - p1.x) * (q2.y - q1.y) - (q1.y - p1.y) * (q2.x - q1.x)) / d
                    let w = ((q1.x - p1.x) * (p2.y - p1.y) - (q1.y - p1.y) * (p2.x - p1.x)) / d
                    guard (0...1).contains(u), (0...1).contains(w) else { continue }
                    let a = u < 0.5 ? s.from : s.to
                    let b = w < 0.5 ? t.from : t.to
                    let distance = Geo.distance(vertices.coordinates[a], vertices.coordinates[b])
                    let (wayA, wayB) = s.way < t.way ? (s.way, t.way) : (t.way, s.way)
                    let (first, second) = s.way < t.way ? (a, b) : (b, a)
                    guard distance <= limit, first != second, pairs.insert([wayA, wayB, first, second]).inserted else { continue }
                    found.append((first, second, wayA, wayB, distance))
                }
            }
        }
        return found
    }
}
