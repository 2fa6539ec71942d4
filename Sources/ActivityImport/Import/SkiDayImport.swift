import MountainGraph

/// A parsed recording turned into what gets stored: the verdict, the runs
/// (each matched to the graph when one is given), and what was left out.
public struct SkiDayImport: Sendable {
    public struct Options: Sendable {
        public var resortID: String
        /// `m<N>-v15-<sha>` of the graph the runs were matched on, when known.
        public var datasetVersion: String?
        public var equipmentKey: String = "none"

        public init(resortID: String, datasetVersion: String? = nil, equipmentKey: String = "none") {
            self.resortID = resortID
            self.datasetVersion = datasetVersion
            self.equipmentKey = equipmentKey
        }
    }

    public var fileName: String
    public var format: ActivityFormat
    public var verdict: SkiDayVerdict
    /// True when the sections came from the recording app's own labels.
    public var usedAppLabels: Bool
    public var runs: [ImportedRun]
    public var liftRides: Int
    /// Each lift ride put on the graph's lift edges (empty without a graph); rides are not stored, only reported.
    public var liftMatches: [TrailMatch]
    /// Descents and rides with no usable match, and other things the user should know.
    public var notes: [String]

    /// Descent distance that landed on graph edges, over all descent distance.
    public var matchedShare: Double {
        let total = runs.reduce(0) { $0 + $1.statistics.distance }
        guard total > 0 else { return 0 }
        return runs.reduce(0) { $0 + $1.statistics.distance * $1.matchedShare } / total
    }

    public init(_ activity: ParsedActivity, matcher: TrailMatcher?, options: Options) {
        fileName = activity.fileName
        format = activity.format
        usedAppLabels = !activity.labelledSections.isEmpty
        let sections = usedAppLabels
            ? SkiDaySegmenter.sections(from: activity.labelledSections, of: activity.segments)
            : SkiDaySegmenter().sections(of: activity.segments)
        verdict = SkiDayVerdict.decide(sport: activity.sport, sections: sections)
        liftRides = sections.filter { $0.kind == .lift }.count
        liftMatches = []
        runs = []
        notes = []
        guard verdict.isSkiDay else { return }
        if let matcher { liftMatches = sections.filter { $0.kind == .lift }.map(matcher.match) }
        var edgeByID: [String: GraphEdge] = [:]
        if let matcher { for edge in matcher.graph.edges { edgeByID[edge.id] = edge } }
        for (number, section) in sections.enumerated() where section.kind == .run {
            let statistics = RunStatistics(section.points)
            let match = matcher?.match(section) ?? .unmatched(section)
            if matcher != nil, match.method == .none || match.method == .nearest {
                notes.append("run \(number + 1) at \(TimestampFormat.iso(section.start)): \(match.method == .none ? "no trail within 300 m" : "only near a trail"), stored unmatched")
            }
            let edge = match.primaryEdgeID.flatMap { edgeByID[$0] }
            let fingerprint = ConditionsFingerprint.default
            runs.append(ImportedRun(
                runAt: section.start, endedAt: section.end, source: activity.format.source,
                sourceFileHash: activity.sourceFileHash, rawSourceID: "\(activity.fileName)#\(number + 1)",
                resortID: options.resortID, datasetVersion: matcher == nil ? nil : options.datasetVersion,
                edgeID: match.primaryEdgeID, difficulty: edge?.attributes.difficulty?.wireName,
                trailName: edge?.attributes.trailName, statistics: statistics,
                appFigures: Self.appFigures(of: section, in: activity.labelledSections),
                matchMethod: match.method, matchConfidence: match.confidence, matchedShare: match.matchedShare,
                matchedEdgeIDs: match.edgeIDs, observations: match.observations, unmatched: match.unmatched,
                equipmentKey: options.equipmentKey, conditionsFingerprint: fingerprint,
                dedupHash: ImportedRun.dedupHash(runAt: section.start, resortID: options.resortID,
                                                 edgeID: match.method == .strict ? match.primaryEdgeID : nil,
                                                 duration: statistics.duration)))
        }
    }

    /// The app's figures of the labelled run that holds this section's middle.
    static func appFigures(of section: SkiSection, in labels: [LabelledSection]) -> AppRunFigures? {
        let middle = (section.start + section.end) / 2
        return labels.first { $0.kind == .run && $0.start <= middle && middle <= $0.end }?.appFigures
    }
}
