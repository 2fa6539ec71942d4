import Digest

/// One descent ready to store as an `activity.imported_runs` row.
public struct ImportedRun: Sendable, Equatable, Codable {
    public var runAt: Double
    public var endedAt: Double
    public var source: String
    public var sourceFileHash: String
    public var rawSourceID: String
    public var resortID: String
    public var datasetVersion: String?
    public var edgeID: String?
    public var difficulty: String?
    public var trailName: String?
    /// Summit's own figures: what is stored and what stats use.
    public var statistics: RunStatistics
    /// The recording app's figures for the same run, when its file has them; kept for comparison.
    public var appFigures: AppRunFigures?
    public var matchMethod: MatchMethod
    public var matchConfidence: Double
    public var matchedShare: Double
    public var matchedEdgeIDs: [String]
    public var observations: [EdgeObservation]
    public var unmatched: [UnmatchedStretch]
    public var equipmentKey: String
    public var conditionsFingerprint: String
    public var dedupHash: String

    /// The physical identity of a descent (spec §5.4, without the source so the
    /// same run exported by two apps agrees): the 15 s bucket of its start, the
    /// resort, and its main edge — or, unmatched, its duration to 10 s.
    public static func dedupHash(runAt: Double, resortID: String, edgeID: String?, duration: Double) -> String {
        let bucket = Int64((runAt / 15).rounded(.down))
        let tail = edgeID ?? "unmatched|d\(Int((duration / 10).rounded()))"
        return "\(bucket)|\(resortID)|\(tail)"
    }
}
