import Foundation
import MountainGraph

/// Finds the open edge polyline nearest a position, for turning a GPS fix
/// into a directed start: a grid of 100 m cells in a local flat projection.
struct EdgeProjectionIndex: Sendable {
    struct Segment: Sendable {
        var edge: Int32
        var ax: Double, ay: Double, bx: Double, by: Double
        /// Distance along the edge's polyline to the segment's start, metres.
        var offset: Double
    }

    static let cellSize = 100.0
    let originLat: Double
    let originLon: Double
    let metresPerDegreeLat: Double
    let metresPerDegreeLon: Double
    let segments: [Segment]
    /// Total polyline length per edge index, metres.
    let polylineLengths: [Double]
    let cells: [Int64: [Int32]]

    init(graph: MountainGraph, edgeIndex: [String: Int32]) {
        let centre = MeetDataset.centre(of: graph)
        originLat = centre.lat
        originLon = centre.lon
        metresPerDegreeLat = 6_371_000 * Double.pi / 180
        metresPerDegreeLon = metresPerDegreeLat * cos(centre.lat * .pi / 180)
        var segments: [Segment] = []
        var lengths = Array(repeating: 0.0, count: edgeIndex.count)
        var cells: [Int64: [Int32]] = [:]
        for edge in graph.edges where edge.attributes.isOpen {
            guard let index = edgeIndex[edge.id] else { continue }
            var offset = 0.0
            for (a, b) in zip(edge.geometry, edge.geometry.dropFirst()) {
                let (ax, ay) = Self.project(a, originLat, originLon, metresPerDegreeLat, metresPerDegreeLon)
                let (bx, by) = Self.project(b, originLat, originLon, metresPerDegreeLat, metresPerDegreeLon)
                let segment = Int32(segments.count)
                segments.append(Segment(edge: index, ax: ax, ay: ay, bx: bx, by: by, offset: offset))
                offset += ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
                let margin = ProjectionLimits.maximumDistance
                for cx in Self.cell(min(ax, bx) - margin)...Self.cell(max(ax, bx) + margin) {
                    for cy in Self.cell(min(ay, by) - margin)...Self.cell(max(ay, by) + margin) {
                        cells[Self.key(cx, cy), default: []].append(segment)
                    }
                }
            }
            lengths[Int(index)] = offset
        }
        self.segments = segments
        self.polylineLengths = lengths
        self.cells = cells
    }

    private static func project(_ c: Coordinate, _ lat0: Double, _ lon0: Double, _ my: Double, _ mx: Double) -> (Double, Double) {
        ((c.lon - lon0) * mx, (c.lat - lat0) * my)
    }

    private static func cell(_ metres: Double) -> Int { Int((metres / cellSize).rounded(.down)) }
    private static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: y))) }

    /// The nearest open edge within `maximumDistance` metres: its index, the
    /// fraction of its polyline already behind the position, and the distance.
    func nearest(to position: Coordinate) -> (edge: Int32, fraction: Double, distance: Double)? {
        let (px, py) = Self.project(position, originLat, originLon, metresPerDegreeLat, metresPerDegreeLon)
        guard let candidates = cells[Self.key(Self.cell(px), Self.cell(py))] else { return nil }
        var best: (edge: Int32, along: Double, distance: Double)?
        for segmentIndex in candidates {
            let s = segments[Int(segmentIndex)]
            let dx = s.bx - s.ax, dy = s.by - s.ay
            let lengthSquared = dx * dx + dy * dy
            let share = lengthSquared > 0 ? max(0, min(1, ((px - s.ax) * dx + (py - s.ay) * dy) / lengthSquared)) : 0
            let qx = s.ax + share * dx, qy = s.ay + share * dy
            let distance = ((px - qx) * (px - qx) + (py - qy) * (py - qy)).squareRoot()
            guard distance <= ProjectionLimits.maximumDistance else { continue }
            let along = s.offset + share * lengthSquared.squareRoot()
            if let current = best, distance > current.distance || (distance == current.distance && s.edge >= current.edge) { continue }
            best = (s.edge, along, distance)
        }
        guard let best else { return nil }
        let total = polylineLengths[Int(best.edge)]
        let fraction = total > 0 ? best.along / total : 0
        return (best.edge, RoutingOrigin.quantize(fraction), best.distance)
    }
}

enum ProjectionLimits {
    /// A fix further than this from every open edge does not resolve.
    static let maximumDistance = 36.0
}
