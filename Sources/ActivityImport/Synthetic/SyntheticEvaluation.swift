import MountainGraph

/// Scores segmentation and trail matching on synthetic days with known truth.
public struct SyntheticEvaluation: Sendable, Codable {
    public var days: Int
    public var fixes: Int
    public var runs: SegmentationScore
    public var lifts: SegmentationScore
    /// Descent distance (true path) and the part of it matched to the true edge.
    public var descentDistance: Double
    public var descentDistanceOnTrueEdges: Double

    public var segmentation: SegmentationScore { runs + lifts }
    public var matchedOnTrueEdges: Double { descentDistance > 0 ? descentDistanceOnTrueEdges / descentDistance : 0 }

    public static func run(graph: MountainGraph, seeds: [UInt64], laps: Int = 8,
                           horizontalNoise: Double = 4, sampleInterval: Double = 1) -> SyntheticEvaluation {
        let matcher = TrailMatcher(graph: graph)
        let segmenter = SkiDaySegmenter()
        var result = SyntheticEvaluation(days: 0, fixes: 0, runs: .init(truth: 0, detected: 0, matched: 0),
                                         lifts: .init(truth: 0, detected: 0, matched: 0), descentDistance: 0, descentDistanceOnTrueEdges: 0)
        for seed in seeds {
            var options = SyntheticSkiDay.Options(seed: seed)
            options.laps = laps
            options.horizontalNoise = horizontalNoise
            options.verticalNoise = max(3, horizontalNoise / 1.5)
            options.sampleInterval = sampleInterval
            let day = SyntheticSkiDay(graph: graph, options: options)
            let sections = segmenter.sections(of: [day.points])
            result.days += 1
            result.fixes += day.points.count
            for kind in [SkiSection.Kind.run, .lift] {
                let score = SegmentationScore(detected: sections.filter { $0.kind == kind }.map(\.interval),
                                              truth: day.truth.sections.filter { $0.kind == kind })
                if kind == .run { result.runs = result.runs + score } else { result.lifts = result.lifts + score }
            }
            // The edge the matcher gave each fix, by time.
            var matchedEdge: [Double: String] = [:]
            for section in sections where section.kind == .run {
                let match = matcher.match(section)
                for (point, edge) in zip(section.points, match.pointEdges) { if let edge { matchedEdge[point.time] = edge } }
            }
            // True descent distance, fix to fix, credited when the matcher chose the true edge.
            for k in 1..<day.points.count {
                guard let trueEdge = day.truth.edges[k], day.truth.edges[k - 1] != nil else { continue }
                let a = day.points[k - 1], b = day.points[k]
                guard b.time - a.time < 5 else { continue }
                let step = Geo.distance(a.lat, a.lon, b.lat, b.lon)
                result.descentDistance += step
                if matchedEdge[b.time] == trueEdge { result.descentDistanceOnTrueEdges += step }
            }
        }
        return result
    }
}
