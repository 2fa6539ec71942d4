import Foundation

/// A deterministic, seeded synthetic ski resort emitted as Overpass JSON.
///
/// Peaks carry lifts from the valley to near the summit; runs descend from
/// lift tops to lift bases through shared vertex ids, some merging into
/// others; bidirectional connectors (`piste:type=connection`) join
/// neighbouring peaks' bases. Every vertex has an `ele` tag sampled from a
/// smooth terrain, so no DEM is needed. A few ways exercise the tag rules
/// (area footprints, private access, lifts drawn top-down, two-way gondolas).
/// `size` multiplies everything: size 1 is roughly a mid-sized real resort.
public struct SyntheticResort: Sendable {
    public let seed: UInt64
    public let size: Int

    /// Peaks per unit of size; each peak has 2–4 lifts and 2–4 runs per lift.
    public static let peaksPerSize = 10

    public init(seed: UInt64, size: Int) {
        precondition(size >= 1, "size must be at least 1")
        self.seed = seed
        self.size = size
    }

    /// The resort as Overpass JSON (`out body`: node elements, then ways).
    public func overpassJSON() -> [UInt8] {
        var builder = SyntheticResortBuilder(seed: seed, peakCount: size * Self.peaksPerSize)
        builder.generate()
        return builder.overpassJSON()
    }
}

/// Accumulates nodes and ways while the resort is laid out.
struct SyntheticResortBuilder {
    var random: SeededGenerator
    let terrain: SyntheticTerrain
    let peakCount: Int

    struct Vertex {
        let x: Double
        let y: Double
        var tags: [(String, String)] = []
    }
    struct Way {
        let id: Int64
        let nodes: [Int64]
        let tags: [(String, String)]
    }

    private(set) var vertices: [Vertex] = []
    private(set) var ways: [Way] = []
    private var nextWayID: Int64 = 100_000
    /// Node ids are 1-based positions in `vertices`.
    static let latitudeOrigin = 46.0
    static let longitudeOrigin = 7.0

    init(seed: UInt64, peakCount: Int) {
        var random = SeededGenerator(seed: seed)
        terrain = SyntheticTerrain(peakCount: peakCount, random: &random)
        self.random = random
        self.peakCount = peakCount
    }

    mutating func generate() {
        var firstBases: [Int64] = []
        for (index, peak) in terrain.peaks.enumerated() {
            firstBases.append(layOutPeak(index, peak))
        }
        // Valley connectors: each peak's first base to its east and north neighbours.
        for index in terrain.peaks.indices {
            let column = index % terrain.columns
            if column + 1 < terrain.columns, index + 1 < firstBases.count {
                connect(firstBases[index], firstBases[index + 1])
            }
            if index + terrain.columns < firstBases.count, random.chance(0.5) {
                connect(firstBases[index], firstBases[index + terrain.columns])
            }
        }
    }

    // MARK: - Layout

    /// Lifts around one peak, runs from each top to bases, and noise ways.
    /// Returns the first lift's base vertex id.
    private mutating func layOutPeak(_ peakIndex: Int, _ peak: SyntheticTerrain.Peak) -> Int64 {
        let liftCount = random.integer(2...4)
        let startAngle = random.uniform(0, 2 * .pi)
        var bases: [Int64] = []
        var tops: [Int64] = []
        for lift in 0..<liftCount {
            let angle = startAngle + Double(lift) * 2 * .pi / Double(liftCount) + random.uniform(-0.3, 0.3)
            let baseDistance = random.uniform(1_900, 2_500)
            let topDistance = random.uniform(150, 400)
            let base = addVertex(peak.x + cos(angle) * baseDistance, peak.y + sin(angle) * baseDistance,
                                 tags: [("aerialway", "station")])
            let top = addVertex(peak.x + cos(angle) * topDistance, peak.y + sin(angle) * topDistance,
                                tags: [("aerialway", "station")])
            addLift(peakIndex: peakIndex, number: lift + 1, base: base, top: top)
            bases.append(base)
            tops.append(top)
        }
        for (liftIndex, top) in tops.enumerated() {
            let runCount = random.integer(2...4)
            var firstRun: [Int64] = []
            for runNumber in 0..<runCount {
                // Down to this lift's base or a neighbour's, so lifts interconnect.
                let target = runNumber == 0 ? bases[liftIndex] : bases[(liftIndex + runNumber) % bases.count]
                let canShare = runNumber > 0 && firstRun.count > 8
                // Some runs fork off the first one part-way down, some merge back into it.
                let start = canShare && random.chance(0.4) ? firstRun[firstRun.count / 4] : top
                let merge = canShare && random.chance(0.4)
                let end = merge ? firstRun[firstRun.count * 3 / 5] : target
                let name = "\(peakIndex + 1)-\(liftIndex + 1)\(Character(Unicode.Scalar(97 + runNumber)!))"
                let path = addRun(peakIndex: peakIndex, name: name, from: start, to: end)
                if runNumber == 0 { firstRun = path }
            }
        }
        addNoise(peak)
        return bases[0]
    }

    private mutating func addLift(peakIndex: Int, number: Int, base: Int64, top: Int64) {
        let types: [(String, Double)] = [("chair_lift", 0.5), ("gondola", 0.15), ("t-bar", 0.1), ("platter", 0.1),
                                         ("drag_lift", 0.1), ("magic_carpet", 0.05)]
        var pick = random.unit()
        var type = types[0].0
        for (candidate, weight) in types {
            if pick < weight { type = candidate; break }
            pick -= weight
        }
        let path = straightPath(from: base, to: top, spacing: 160)
        var tags: [(String, String)] = [("aerialway", type), ("name", "Lift \(peakIndex + 1)-\(number)")]
        if type == "chair_lift" || type == "gondola" {
            tags.append(("aerialway:capacity", String([1200, 1800, 2400, 2800][random.integer(0...3)])))
        }
        if random.chance(0.4) { tags.append(("aerialway:duration", String(random.integer(4...12)))) }
        if type == "gondola", random.chance(0.5) { tags.append(("oneway", "no")) }
        // A few lifts are drawn top-down; the builder must orient them by elevation.
        let drawn = random.chance(0.1) ? Array(path.reversed()) : path
        addWay(drawn, tags: tags)
    }

    /// A curving descent from `start` to `end` with vertices every ~50 m.
    @discardableResult
    private mutating func addRun(peakIndex: Int, name: String, from start: Int64, to end: Int64) -> [Int64] {
        let a = vertices[Int(start - 1)]
        let b = vertices[Int(end - 1)]
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        let bend = random.uniform(-0.25, 0.25) * length
        let count = max(3, Int(length / 50))
        var path: [Int64] = [start]
        for step in 1..<count {
            let t = Double(step) / Double(count)
            let offset = bend * sin(.pi * t) + random.uniform(-6, 6)
            let x = a.x + dx * t - dy / length * offset
            let y = a.y + dy * t + dx / length * offset
            path.append(addVertex(x, y))
        }
        path.append(end)

        let drop = terrain.elevation(x: a.x, y: a.y) - terrain.elevation(x: b.x, y: b.y)
        let slope = atan(max(0, drop) / length) * 180 / .pi
        let difficulty = slope < 9 ? (random.chance(0.5) ? "novice" : "easy")
            : slope < 15 ? "intermediate" : slope < 21 ? "advanced" : (random.chance(0.7) ? "expert" : "freeride")
        var tags: [(String, String)] = [("piste:type", "downhill"), ("piste:difficulty", difficulty)]
        if random.chance(0.85) { tags.append(("name", "Run \(name)")) }
        if random.chance(0.3) { tags.append(("piste:grooming", ["classic", "mogul", "backcountry"][random.integer(0...2)])) }
        // Pistes are drawn downhill; a few are not, to exercise the elevation check.
        addWay(random.chance(0.05) ? Array(path.reversed()) : path, tags: tags)
        return path
    }

    private mutating func connect(_ from: Int64, _ to: Int64) {
        let path = straightPath(from: from, to: to, spacing: 120)
        addWay(path, tags: [("name", "Valley link"), ("piste:type", "connection")])
    }

    /// Ways the builder must leave out or treat specially.
    private mutating func addNoise(_ peak: SyntheticTerrain.Peak) {
        // A ski-area footprint polygon around the summit.
        var ring: [Int64] = []
        for corner in 0..<6 {
            let angle = Double(corner) * .pi / 3
            ring.append(addVertex(peak.x + cos(angle) * 700, peak.y + sin(angle) * 700))
        }
        ring.append(ring[0])
        addWay(ring, tags: [("area", "yes"), ("piste:type", "downhill")])
        // A private training run.
        if random.chance(0.3) {
            let start = addVertex(peak.x + 900, peak.y - 900)
            let end = addVertex(peak.x + 1_400, peak.y - 1_400)
            addWay(straightPath(from: start, to: end, spacing: 60),
                   tags: [("access", "private"), ("piste:difficulty", "easy"), ("piste:type", "downhill")])
        }
    }

    // MARK: - Primitives

    private mutating func straightPath(from start: Int64, to end: Int64, spacing: Double) -> [Int64] {
        let a = vertices[Int(start - 1)]
        let b = vertices[Int(end - 1)]
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        let count = max(1, Int(length / spacing))
        var path = [start]
        for step in 1..<max(count, 1) {
            let t = Double(step) / Double(count)
            path.append(addVertex(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
        }
        path.append(end)
        return path
    }

    private mutating func addVertex(_ x: Double, _ y: Double, tags: [(String, String)] = []) -> Int64 {
        vertices.append(Vertex(x: x, y: y, tags: tags))
        return Int64(vertices.count)
    }

    private mutating func addWay(_ nodes: [Int64], tags: [(String, String)]) {
        ways.append(Way(id: nextWayID, nodes: nodes, tags: tags))
        nextWayID += 1
    }

    // MARK: - Output

    func overpassJSON() -> [UInt8] {
        var w = CanonicalJSONWriter(capacity: vertices.count * 90 + ways.count * 200)
        let metresPerDegreeLat = 111_320.0
        let metresPerDegreeLon = 111_320.0 * cos(Self.latitudeOrigin * .pi / 180)
        w.beginObject()
        w.key("elements")
        w.beginArray()
        for (index, vertex) in vertices.enumerated() {
            let lat = ((Self.latitudeOrigin + vertex.y / metresPerDegreeLat) * 1e7).rounded() / 1e7
            let lon = ((Self.longitudeOrigin + vertex.x / metresPerDegreeLon) * 1e7).rounded() / 1e7
            let elevation = (terrain.elevation(x: vertex.x, y: vertex.y) * 10).rounded() / 10
            w.overpassNode(id: Int64(index + 1), lat: lat, lon: lon, tags: vertex.tags + [("ele", Self.decimal(elevation))])
        }
        for way in ways {
            w.overpassWay(id: way.id, nodeIDs: way.nodes, tags: way.tags)
        }
        w.endArray()
        w.key("generator"); w.string("Summit synthetic resort")
        w.key("version"); w.number(0.6)
        w.endObject()
        return w.bytes
    }

    /// One-decimal text without a locale.
    private static func decimal(_ value: Double) -> String {
        var bytes: [UInt8] = []
        CanonicalNumber.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
