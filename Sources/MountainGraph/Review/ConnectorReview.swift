/// The review step's connector proposals.
///
/// Real extracts rarely share vertices between lifts and pistes, so under the
/// source-topology rule most lifts are dead ends. This finds, for each lift
/// end that touches no piste, the nearest piste vertex within a bounded
/// distance, and for each piste end that touches nothing, the nearest vertex
/// of another piste close by. An operator accepts proposals into the manifest
/// as reviewed connectors; the build itself never infers any.
public enum ConnectorReview {
    public static func propose(
        osm: OSMData, elevation: (any ElevationSource)? = nil,
        maxLiftDistance: Double = 80, maxPisteGap: Double = 25
    ) -> [ConnectorProposal] {
        var run = BuildRun(osm: osm, manifest: nil,
                           parameters: BuildParameters(resortID: "review", manifestVersion: 0, snapshotDate: ""),
                           options: BuildOptions(missingElevation: .assumeFlat))
        run.classifyWays()
        run.registerVertices(elevation: elevation)
        run.assignElevations()
        return run.connectorProposals(maxLiftDistance: maxLiftDistance, maxPisteGap: maxPisteGap)
    }

    /// Turns accepted proposals into manifest rows with ids from
    /// `CanonicalConnector.reviewedIDBase`, in the proposals' order.
    public static func accept(_ proposals: [ConnectorProposal], firstID: Int64 = CanonicalConnector.reviewedIDBase) -> [CanonicalConnector] {
        proposals.enumerated().map { $0.element.connector(id: firstID + Int64($0.offset)) }
    }
}

extension BuildRun {
    func connectorProposals(maxLiftDistance: Double, maxPisteGap: Double) -> [ConnectorProposal] {
        let count = vertices.ids.count
        var usedByPiste = Array(repeating: false, count: count)
        var usage = Array(repeating: 0, count: count)
        var runWayOf = Array(repeating: Int64(0), count: count)
        for way in ways {
            for vertex in Set(way.vertices) {
                let v = vertices.index[vertex]!
                usage[v] += 1
                if way.kind != .lift { usedByPiste[v] = true }
                if way.kind == .run, runWayOf[v] == 0 { runWayOf[v] = way.id }
            }
        }
        let liftGrid = SpatialGrid(cell: maxLiftDistance, vertices: vertices, include: { runWayOf[$0] != 0 })
        let gapGrid = SpatialGrid(cell: maxPisteGap, vertices: vertices, include: { runWayOf[$0] != 0 })

        var proposals: [ConnectorProposal] = []
        func proposal(_ kind: ConnectorProposal.Kind, _ from: Int, _ to: Int, _ fromWay: Int64, _ toWay: Int64,
                      distance: Double, bidirectional: Bool) -> ConnectorProposal {
            ConnectorProposal(kind: kind, fromOSMNodeID: vertices.ids[from], toOSMNodeID: vertices.ids[to],
                              bidirectional: bidirectional, distanceMeters: Quantize.metres(distance),
                              fromElevation: vertices.elevation[from], toElevation: vertices.elevation[to],
                              fromWayID: fromWay, toWayID: toWay)
        }

        for way in ways where way.kind == .lift {
            let first = vertices.index[way.vertices[0]]!
            let last = vertices.index[way.vertices[way.vertices.count - 1]]!
            let (base, top) = vertices.elevation[last] < vertices.elevation[first] ? (last, first) : (first, last)
            if !usedByPiste[top], let (target, distance) = liftGrid.nearest(to: top, within: maxLiftDistance, in: vertices) {
                proposals.append(proposal(.liftExit, top, target, way.id, runWayOf[target], distance: distance, bidirectional: false))
            }
            if !usedByPiste[base], let (source, distance) = liftGrid.nearest(to: base, within: maxLiftDistance, in: vertices) {
                proposals.append(proposal(.liftEntry, source, base, runWayOf[source], way.id, distance: distance, bidirectional: false))
            }
        }

        var pairs: Set<[Int]> = []
        for way in ways where way.kind == .run {
            for end in [way.vertices[0], way.vertices[way.vertices.count - 1]] {
                let v = vertices.index[end]!
                guard usage[v] == 1 else { continue }
                let candidate = gapGrid.nearest(to: v, within: maxPisteGap, in: vertices) { runWayOf[$0] != way.id }
                guard let (target, distance) = candidate, pairs.insert([min(v, target), max(v, target)]).inserted else { continue }
                proposals.append(proposal(.pisteGap, v, target, way.id, runWayOf[target], distance: distance, bidirectional: true))
            }
        }
        return proposals.sorted {
            ($0.kind.rawValue, $0.fromOSMNodeID, $0.toOSMNodeID) < ($1.kind.rawValue, $1.fromOSMNodeID, $1.toOSMNodeID)
        }
    }
}

/// Vertices bucketed on a metre grid for nearest-neighbour queries.
struct SpatialGrid {
    private let cell: Double
    private var buckets: [GridKey: [Int]] = [:]

    struct GridKey: Hashable {
        let x: Int
        let y: Int
    }

    init(cell: Double, vertices: VertexTable, include: (Int) -> Bool) {
        self.cell = cell
        for v in vertices.ids.indices where include(v) {
            buckets[key(vertices.coordinates[v]), default: []].append(v)
        }
    }

    private func key(_ c: Coordinate) -> GridKey {
        // Local metres: longitude scaled by the cosine at 45° is close enough
        // for bucketing; distances themselves are haversine.
        GridKey(x: Int((c.lon * 78_700 / cell).rounded(.down)), y: Int((c.lat * 111_195 / cell).rounded(.down)))
    }

    /// The closest included vertex other than `vertex` within `limit` metres;
    /// ties go to the smaller OSM id so the answer never depends on order.
    func nearest(to vertex: Int, within limit: Double, in vertices: VertexTable,
                 where accept: (Int) -> Bool = { _ in true }) -> (Int, Double)? {
        let origin = vertices.coordinates[vertex]
        let center = key(origin)
        let reach = Int((limit / cell).rounded(.up)) + 1
        var best: (Int, Double)?
        for dx in -reach...reach {
            for dy in -reach...reach {
                for candidate in buckets[GridKey(x: center.x + dx, y: center.y + dy)] ?? [] where candidate != vertex && accept(candidate) {
                    let distance = Geo.distance(origin, vertices.coordinates[candidate])
                    guard distance <= limit else { continue }
                    if let current = best, distance > current.1
                        || (distance == current.1 && vertices.ids[candidate] >= vertices.ids[current.0]) { continue }
                    best = (candidate, distance)
                }
            }
        }
        return best
    }
}
