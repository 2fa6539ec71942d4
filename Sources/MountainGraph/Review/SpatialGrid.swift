/// Vertices bucketed on a metre grid for neighbourhood queries.
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

    /// Every included vertex other than `vertex` within `limit` metres of
    /// `origin`, nearest first; ties by smaller OSM id so the order never
    /// depends on the buckets.
    func neighbours(of origin: Coordinate, excluding vertex: Int = -1, within limit: Double,
                    in vertices: VertexTable) -> [(vertex: Int, distance: Double)] {
        let center = key(origin)
        let reach = Int((limit / cell).rounded(.up)) + 1
        var found: [(vertex: Int, distance: Double)] = []
        for dx in -reach...reach {
            for dy in -reach...reach {
                for candidate in buckets[GridKey(x: center.x + dx, y: center.y + dy)] ?? [] where candidate != vertex {
                    let distance = Geo.distance(origin, vertices.coordinates[candidate])
                    if distance <= limit { found.append((candidate, distance)) }
                }
            }
        }
        return found.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : vertices.ids[$0.vertex] < vertices.ids[$1.vertex] }
    }
}
