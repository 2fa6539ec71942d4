import Foundation
import MountainGraph

/// The graph's edges flattened into a local metric plane with a uniform grid
/// over their segments, so "which edges pass within r metres of this fix" costs
/// a few cells, not the whole resort. Also holds the adjacency the matcher walks.
struct EdgeIndex {
    struct Segment {
        var edge: Int
        var ax: Double, ay: Double, bx: Double, by: Double
        /// Distance along the edge at `a`.
        var offset: Double
        var length: Double
        var bearing: Double
    }

    struct Hit {
        var edge: Int
        var distance: Double
        /// Metres from the edge's start to the projection.
        var offset: Double
        var bearing: Double
    }

    let graph: MountainGraph
    let projection: LocalProjection
    let cellSize = 100.0
    var segments: [Segment] = []
    var cells: [Int64: [Int32]] = [:]
    var edgeLength: [Double] = []
    var edgeSource: [Int] = []
    var edgeTarget: [Int] = []
    var outgoing: [[Int]] = []
    var nodeIndex: [String: Int] = [:]

    init(graph: MountainGraph) {
        self.graph = graph
        let origin = graph.nodes.first
        projection = LocalProjection(originLat: origin?.lat ?? 0, originLon: origin?.lon ?? 0)
        for (index, node) in graph.nodes.enumerated() { nodeIndex[node.id] = index }
        outgoing = Array(repeating: [], count: graph.nodes.count)
        for (edgeNumber, edge) in graph.edges.enumerated() {
            let source = nodeIndex[edge.sourceID] ?? 0, target = nodeIndex[edge.targetID] ?? 0
            edgeSource.append(source)
            edgeTarget.append(target)
            outgoing[source].append(edgeNumber)
            var offset = 0.0
            for (a, b) in zip(edge.geometry, edge.geometry.dropFirst()) {
                let pa = projection.project(a.lat, a.lon), pb = projection.project(b.lat, b.lon)
                let length = ((pb.x - pa.x) * (pb.x - pa.x) + (pb.y - pa.y) * (pb.y - pa.y)).squareRoot()
                var bearing = atan2Degrees(pb.x - pa.x, pb.y - pa.y)
                if bearing < 0 { bearing += 360 }
                let segment = Segment(edge: edgeNumber, ax: pa.x, ay: pa.y, bx: pb.x, by: pb.y, offset: offset, length: length, bearing: bearing)
                let number = Int32(segments.count)
                segments.append(segment)
                offset += length
                for key in cellKeys(minX: min(pa.x, pb.x), minY: min(pa.y, pb.y), maxX: max(pa.x, pb.x), maxY: max(pa.y, pb.y)) {
                    cells[key, default: []].append(number)
                }
            }
            edgeLength.append(offset)
        }
    }

    /// The closest point of every edge within `radius` of (x, y), one hit per edge, nearest first.
    func hits(x: Double, y: Double, radius: Double, allowed: (Int) -> Bool) -> [Hit] {
        var best: [Int: Hit] = [:]
        for key in cellKeys(minX: x - radius, minY: y - radius, maxX: x + radius, maxY: y + radius) {
            guard let list = cells[key] else { continue }
            for number in list {
                let s = segments[Int(number)]
                guard allowed(s.edge) else { continue }
                let dx = s.bx - s.ax, dy = s.by - s.ay
                let lengthSquared = dx * dx + dy * dy
                let t = lengthSquared > 0 ? max(0, min(1, ((x - s.ax) * dx + (y - s.ay) * dy) / lengthSquared)) : 0
                let px = s.ax + t * dx, py = s.ay + t * dy
                let distance = ((x - px) * (x - px) + (y - py) * (y - py)).squareRoot()
                guard distance <= radius else { continue }
                if let existing = best[s.edge], existing.distance <= distance { continue }
                best[s.edge] = Hit(edge: s.edge, distance: distance, offset: s.offset + t * s.length, bearing: s.bearing)
            }
        }
        return best.values.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.edge < $1.edge) }
    }

    private func cellKeys(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int64] {
        let x0 = Int64((minX / cellSize).rounded(.down)), x1 = Int64((maxX / cellSize).rounded(.down))
        let y0 = Int64((minY / cellSize).rounded(.down)), y1 = Int64((maxY / cellSize).rounded(.down))
        var keys: [Int64] = []
        for cx in x0...x1 { for cy in y0...y1 { keys.append(cx << 32 ^ (cy & 0xFFFF_FFFF)) } }
        return keys
    }
}

@inline(__always) func atan2Degrees(_ east: Double, _ north: Double) -> Double {
    atan2(east, north) * 180 / .pi
}
