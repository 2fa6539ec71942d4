/// Precision and recall of detected sections against known ones.
///
/// A detected section matches a true one of the same kind when their overlap
/// covers at least half of each; every section matches at most once.
public struct SegmentationScore: Sendable, Equatable, Codable {
    public struct Interval: Sendable, Equatable {
        public var kind: SkiSection.Kind
        public var start: Double
        public var end: Double

        public init(kind: SkiSection.Kind, start: Double, end: Double) {
            self.kind = kind
            self.start = start
            self.end = end
        }
    }

    public var truth: Int
    public var detected: Int
    public var matched: Int

    public var precision: Double { detected == 0 ? (truth == 0 ? 1 : 0) : Double(matched) / Double(detected) }
    public var recall: Double { truth == 0 ? 1 : Double(matched) / Double(truth) }

    public init(truth: Int, detected: Int, matched: Int) {
        self.truth = truth
        self.detected = detected
        self.matched = matched
    }

    public init(detected: [Interval], truth: [Interval]) {
        var used = Set<Int>()
        var matched = 0
        for section in detected {
            for (index, candidate) in truth.enumerated() where !used.contains(index) && candidate.kind == section.kind {
                let overlap = min(section.end, candidate.end) - max(section.start, candidate.start)
                guard overlap > 0 else { continue }
                if overlap >= 0.5 * (candidate.end - candidate.start) && overlap >= 0.5 * (section.end - section.start) {
                    used.insert(index)
                    matched += 1
                    break
                }
            }
        }
        self.init(truth: truth.count, detected: detected.count, matched: matched)
    }

    public static func + (a: Self, b: Self) -> Self {
        Self(truth: a.truth + b.truth, detected: a.detected + b.detected, matched: a.matched + b.matched)
    }
}

extension SkiSection {
    public var interval: SegmentationScore.Interval { .init(kind: kind, start: start, end: end) }
}
