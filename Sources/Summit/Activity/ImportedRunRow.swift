import ActivityImport
import Foundation

/// One run as `activity.save_imported_runs` takes it (column names, ISO times).
struct ImportedRunRow: Codable, Sendable {
    var run_at: String
    var ended_at: String
    var dedup_hash: String
    var resort_id: String
    var dataset_version: String?
    var edge_id: String?
    var difficulty: String?
    var trail_name: String?
    var source: String
    var source_file_hash: String
    var raw_source_id: String
    var speed_ms: Double
    var peak_speed_ms: Double
    var duration_s: Double
    var vertical_m: Double
    var distance_m: Double
    var max_grade_deg: Double
    var conditions_fp: String
    var matched_edge_ids: [String]
    var edge_observations: [EdgeObservation]
    var match_method: String
    var match_confidence: Double
    var equipment_key: String
    /// The recording app's own figures, beside Summit's (which the stats use).
    var app_figures: AppFigures?

    struct AppFigures: Codable, Sendable {
        var vertical_m: Double?
        var top_speed_ms: Double?
        var avg_speed_ms: Double?
        var distance_m: Double?
    }

    init(_ run: ImportedRun) {
        run_at = Self.iso(run.runAt)
        ended_at = Self.iso(run.endedAt)
        dedup_hash = run.dedupHash
        resort_id = run.resortID
        dataset_version = run.datasetVersion
        edge_id = run.edgeID
        difficulty = run.difficulty
        trail_name = run.trailName
        source = run.source
        source_file_hash = run.sourceFileHash
        raw_source_id = run.rawSourceID
        speed_ms = run.statistics.movingAverageSpeed
        peak_speed_ms = run.statistics.peakSpeed
        duration_s = run.statistics.duration
        vertical_m = run.statistics.vertical
        distance_m = run.statistics.distance
        max_grade_deg = run.statistics.maxGrade
        conditions_fp = run.conditionsFingerprint
        matched_edge_ids = run.matchedEdgeIDs
        edge_observations = run.observations
        match_method = run.matchMethod.rawValue
        match_confidence = min(1, max(0, run.matchConfidence))
        equipment_key = run.equipmentKey
        app_figures = run.appFigures.map { AppFigures(vertical_m: $0.vertical, top_speed_ms: $0.topSpeed, avg_speed_ms: $0.averageSpeed,
                                                       distance_m: $0.distance) }
    }

    /// Millisecond ISO 8601 in UTC: what PostgreSQL reads back exactly enough for dedup.
    static func iso(_ time: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: time))
    }
}
