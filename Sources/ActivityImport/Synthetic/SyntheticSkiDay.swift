import Foundation
import MountainGraph

/// A recorded ski day with known truth: a skier following a route on a resort
/// graph — queueing at a lift, riding it, pausing at the top, skiing down run
/// edges chosen at random (sometimes stopping mid-run), and again — sampled
/// like a phone: correlated GPS drift, noisy altitude, and short dropouts.
///
/// The truth (every lift ride and descent, and the edge under the skier at
/// every fix) lets tests measure segmentation precision/recall and how much
/// descent distance the matcher puts on the right edges.
public struct SyntheticSkiDay: Sendable {
    public struct Options: Sendable {
        public var seed: UInt64
        public var laps = 8
        public var sampleInterval = 1.0
        /// Standard deviation of horizontal GPS drift, metres (AR(1), slowly varying).
        public var horizontalNoise = 4.0
        public var verticalNoise = 3.0
        public var midRunPauseChance = 0.35
        /// Chance per fix that a dropout of 5–20 s starts.
        public var dropoutChance = 0.004
        /// Unix time of the first fix (default 2025-01-15T16:00Z, 9:00 in the Alps… or Colorado).
        public var start = 1_736_956_800.0

        public init(seed: UInt64) { self.seed = seed }
    }

    public struct Truth: Sendable {
        /// Every lift ride and descent, in order.
        public var sections: [SegmentationScore.Interval]
        /// The run edge under the skier at each fix (nil off runs), parallel to `points`.
        public var edges: [String?]
    }

    public var points: [TrackPoint]
    public var truth: Truth

    private enum Leg {
        case edge(Int, speed: Double)
        case pause(seconds: Double)
    }

    public init(graph: MountainGraph, options: Options) {
        var random = SeededGenerator(seed: options.seed)
        let plan = Self.plan(graph: graph, laps: options.laps, random: &random)
        self = Self.sample(graph: graph, plan: plan, options: options, random: &random)
    }

    // MARK: - Route

    private struct Plan {
        var legs: [Leg]
        /// Kind of section each leg belongs to (nil: waiting between sections), and section number.
        var sectionOfLeg: [(kind: SkiSection.Kind, number: Int)?]
    }

    private static func plan(graph: MountainGraph, laps: Int, random: inout SeededGenerator) -> Plan {
        var nodeIndex: [String: Int] = [:]
        for (index, node) in graph.nodes.enumerated() { nodeIndex[node.id] = index }
        var outgoing = [[Int]](repeating: [], count: graph.nodes.count)
        for (number, edge) in graph.edges.enumerated() where edge.attributes.isOpen {
            outgoing[nodeIndex[edge.sourceID]!].append(number)
        }
        // Boarding edges of lifts that go up: riding a gondola down is not part of these days.
        let isBoarding = { (edge: Int) in
            let e = graph.edges[edge]
            return e.kind == .lift && e.attributes.queueEntry
                && graph.nodes[nodeIndex[e.targetID]!].elevation > graph.nodes[nodeIndex[e.sourceID]!].elevation
        }
        // Nodes from which run edges lead to a lift: a descent never strands the skier.
        var good = Set(outgoing.indices.filter { outgoing[$0].contains(where: isBoarding) })
        var changed = true
        while changed {
            changed = false
            for node in outgoing.indices where !good.contains(node) {
                if outgoing[node].contains(where: { graph.edges[$0].kind == .run && good.contains(nodeIndex[graph.edges[$0].targetID]!) }) {
                    good.insert(node)
                    changed = true
                }
            }
        }
        let boardings = graph.edges.indices.filter { isBoarding($0) && good.contains(nodeIndex[graph.edges[$0].sourceID]!) }
        var legs: [Leg] = []
        var sections: [(kind: SkiSection.Kind, number: Int)?] = []
        guard !boardings.isEmpty else { return Plan(legs: [], sectionOfLeg: []) }
        var lift = boardings[random.integer(0...(boardings.count - 1))]
        var sectionNumber = 0
        for _ in 0..<laps {
            // Queue, ride the whole lift chain, pause at the top.
            legs.append(.pause(seconds: random.uniform(30, 180))); sections.append(nil)
            let type = graph.edges[lift].attributes.liftType?.rawValue ?? "chair_lift"
            let speed = type == "gondola" || type == "cable_car" ? 5.0 : type == "magic_carpet" ? 1.5
                : type.contains("bar") || type == "platter" || type == "drag_lift" ? 3.0 : 2.4
            var edge = lift
            var guardCount = 0
            while true {
                legs.append(.edge(edge, speed: speed)); sections.append((.lift, sectionNumber))
                let group = graph.edges[edge].attributes.trailGroupId
                let target = nodeIndex[graph.edges[edge].targetID]!
                guard let next = outgoing[target].first(where: { graph.edges[$0].kind == .lift && graph.edges[$0].attributes.trailGroupId == group
                                                                 && !graph.edges[$0].attributes.queueEntry }),
                      guardCount < 20 else { break }
                edge = next
                guardCount += 1
            }
            sectionNumber += 1
            legs.append(.pause(seconds: random.uniform(15, 45))); sections.append(nil)
            // Descend until a lift base, sometimes stopping on the way.
            var node = nodeIndex[graph.edges[edge].targetID]!
            let baseSpeed = random.uniform(6, 12)
            var runEdges = 0
            let pauseAt = random.chance(0.35) ? random.integer(0...3) : -1
            while runEdges < 30 {
                let options = outgoing[node].filter { graph.edges[$0].kind == .run && good.contains(nodeIndex[graph.edges[$0].targetID]!) }
                let boarding = outgoing[node].filter(isBoarding)
                if !boarding.isEmpty && (options.isEmpty || (runEdges >= 2 && random.chance(0.6))) {
                    lift = boarding[random.integer(0...(boarding.count - 1))]
                    break
                }
                guard !options.isEmpty else { break }
                let chosen = options[random.integer(0...(options.count - 1))]
                if runEdges == pauseAt {
                    legs.append(.pause(seconds: random.uniform(20, 120))); sections.append((.run, sectionNumber))
                }
                legs.append(.edge(chosen, speed: baseSpeed * random.uniform(0.8, 1.2))); sections.append((.run, sectionNumber))
                node = nodeIndex[graph.edges[chosen].targetID]!
                runEdges += 1
            }
            sectionNumber += 1
            if outgoing[node].filter(isBoarding).isEmpty { break }
        }
        return Plan(legs: legs, sectionOfLeg: sections)
    }

    // MARK: - Sampling

    private static func sample(graph: MountainGraph, plan: Plan, options: Options, random: inout SeededGenerator) -> SyntheticSkiDay {
        var nodeElevation: [String: Double] = [:]
        for node in graph.nodes { nodeElevation[node.id] = node.elevation }
        var points: [TrackPoint] = []
        var edges: [String?] = []
        var sectionBounds: [Int: (kind: SkiSection.Kind, start: Double, end: Double)] = [:]
        var noiseX = 0.0, noiseY = 0.0, noiseZ = 0.0
        let rho = 0.95, rhoZ = 0.9
        var time = options.start
        var dropoutUntil = -Double.infinity
        // The day starts where the first ride boards.
        let firstEdge = plan.legs.lazy.compactMap { leg -> GraphEdge? in
            if case .edge(let number, _) = leg { return graph.edges[number] } else { return nil }
        }.first
        var position = firstEdge.map { ($0.geometry[0].lat, $0.geometry[0].lon, nodeElevation[$0.sourceID] ?? 0) } ?? (0, 0, 0)

        func gaussian(_ random: inout SeededGenerator) -> Double {
            let u1 = max(random.unit(), 1e-12), u2 = random.unit()
            return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        }
        func emit(lat: Double, lon: Double, elevation: Double, edge: String?, random: inout SeededGenerator) {
            noiseX = rho * noiseX + (1 - rho * rho).squareRoot() * options.horizontalNoise * gaussian(&random)
            noiseY = rho * noiseY + (1 - rho * rho).squareRoot() * options.horizontalNoise * gaussian(&random)
            noiseZ = rhoZ * noiseZ + (1 - rhoZ * rhoZ).squareRoot() * options.verticalNoise * gaussian(&random)
            if time < dropoutUntil { return }
            if random.chance(options.dropoutChance) { dropoutUntil = time + random.uniform(5, 20) }
            let metresPerDegree = Geo.earthRadius * Double.pi / 180
            points.append(TrackPoint(
                time: time, lat: lat + noiseY / metresPerDegree,
                lon: lon + noiseX / (metresPerDegree * cos(lat * .pi / 180)),
                elevation: elevation + noiseZ + gaussian(&random) * 1.0, speed: nil,
                horizontalAccuracy: options.horizontalNoise * 1.5))
            edges.append(edge)
        }
        func mark(_ section: (kind: SkiSection.Kind, number: Int)?, from start: Double, to end: Double) {
            guard let section else { return }
            if let existing = sectionBounds[section.number] {
                sectionBounds[section.number] = (section.kind, existing.start, end)
            } else {
                sectionBounds[section.number] = (section.kind, start, end)
            }
        }

        for (legNumber, leg) in plan.legs.enumerated() {
            let legStart = time
            switch leg {
            case .pause(let seconds):
                let end = time + seconds
                while time < end {
                    emit(lat: position.0, lon: position.1, elevation: position.2, edge: nil, random: &random)
                    time += options.sampleInterval
                }
            case .edge(let number, let speed):
                let edge = graph.edges[number]
                let geometry = edge.geometry
                var cumulative = [0.0]
                for (a, b) in zip(geometry, geometry.dropFirst()) {
                    cumulative.append(cumulative.last! + Geo.distance(a.lat, a.lon, b.lat, b.lon))
                }
                let length = cumulative.last!
                let z0 = nodeElevation[edge.sourceID] ?? 0, z1 = nodeElevation[edge.targetID] ?? 0
                let runEdge = edge.kind == .run ? edge.id : nil
                var travelled = 0.0
                var vertex = 0
                while travelled < length {
                    while vertex + 1 < cumulative.count - 1, cumulative[vertex + 1] < travelled { vertex += 1 }
                    let a = geometry[vertex], b = geometry[vertex + 1]
                    let piece = max(cumulative[vertex + 1] - cumulative[vertex], 1e-9)
                    let f = min(1, max(0, (travelled - cumulative[vertex]) / piece))
                    let lat = a.lat + (b.lat - a.lat) * f, lon = a.lon + (b.lon - a.lon) * f
                    let elevation = z0 + (z1 - z0) * travelled / max(length, 1e-9)
                    emit(lat: lat, lon: lon, elevation: elevation, edge: runEdge, random: &random)
                    position = (lat, lon, elevation)
                    time += options.sampleInterval
                    travelled += speed * options.sampleInterval
                }
                if let last = geometry.last { position = (last.lat, last.lon, z1) }
            }
            mark(plan.sectionOfLeg[legNumber], from: legStart, to: time - options.sampleInterval)
        }
        let sections = sectionBounds.keys.sorted().map { number in
            let bound = sectionBounds[number]!
            return SegmentationScore.Interval(kind: bound.kind, start: bound.start, end: bound.end)
        }
        return SyntheticSkiDay(points: points, truth: Truth(sections: sections, edges: edges))
    }

    private init(points: [TrackPoint], truth: Truth) {
        self.points = points
        self.truth = truth
    }

    /// The day as a GPX 1.1 file, as a phone app would export it.
    public func gpx(name: String = "Synthetic ski day") -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Summit synthetic recording" xmlns="http://www.topografix.com/GPX/1/1">
              <trk>
                <name>\(name)</name>
                <type>alpine_skiing</type>
                <trkseg>

            """
        text.reserveCapacity(points.count * 110)
        for point in points {
            text += "      <trkpt lat=\"\(String(format: "%.7f", point.lat))\" lon=\"\(String(format: "%.7f", point.lon))\">"
            if let elevation = point.elevation { text += "<ele>\(String(format: "%.1f", elevation))</ele>" }
            text += "<time>\(Self.isoMillis(point.time))</time></trkpt>\n"
        }
        text += "    </trkseg>\n  </trk>\n</gpx>\n"
        return Array(text.utf8)
    }

    static func isoMillis(_ time: Double) -> String {
        let whole = time.rounded(.down)
        let millis = Int(((time - whole) * 1000).rounded())
        return String(TimestampFormat.iso(whole).dropLast()) + String(format: ".%03dZ", min(millis, 999))
    }
}
