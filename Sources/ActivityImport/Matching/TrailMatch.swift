/// How a section was put on the graph (spec §5.3 tiers).
public enum MatchMethod: String, Sendable, Codable {
    /// Map-matched within 60 m and 45°: feeds learning.
    case strict
    /// Map-matched within 120 m and 70°: names the trail, never feeds learning.
    case relaxed
    /// Only the section's centre lies within 300 m of an edge.
    case nearest
    case none
}

/// Pace on one edge, measured from the fixes that lay on it.
public struct EdgeObservation: Sendable, Equatable, Codable {
    public var edgeID: String
    public var enteredAt: Double
    public var exitedAt: Double
    /// Share of the edge's length the fixes covered, 0…1.
    public var fractionCovered: Double
    public var speed: Double
    public var duration: Double
    public var points: Int
    /// Strict match, at least 4 fixes and at least half the edge: only these teach edge speeds.
    public var feedsLearning: Bool

    enum CodingKeys: String, CodingKey {
        case edgeID = "edge_id", enteredAt = "entered_at", exitedAt = "exited_at", fractionCovered = "fraction_covered"
        case speed = "speed_ms", duration = "duration_s", points, feedsLearning = "feeds_learning"
    }
}

/// A stretch of a section no edge explained.
public struct UnmatchedStretch: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var distance: Double
}

/// Where one section went on the resort graph.
public struct TrailMatch: Sendable, Equatable {
    public var method: MatchMethod
    public var confidence: Double
    /// Directed edges in the order travelled, gaps between matched pieces left out.
    public var edgeIDs: [String]
    public var observations: [EdgeObservation]
    /// The edge that carried most of the section (the row's `edge_id`).
    public var primaryEdgeID: String?
    /// Share of the section's distance explained by matched edges, 0…1.
    public var matchedShare: Double
    /// Mean distance from matched fixes to their edge, metres.
    public var meanDistance: Double
    public var unmatched: [UnmatchedStretch]
    /// The edge each fix was put on (nil where unmatched), parallel to the section's fixes.
    public var pointEdges: [String?]

    public static func unmatched(_ section: SkiSection) -> TrailMatch {
        let distance = RunStatistics(section.points).distance
        return TrailMatch(method: .none, confidence: 0, edgeIDs: [], observations: [], primaryEdgeID: nil, matchedShare: 0,
                          meanDistance: 0, unmatched: [UnmatchedStretch(start: section.start, end: section.end, distance: distance)],
                          pointEdges: Array(repeating: nil, count: section.points.count))
    }
}
