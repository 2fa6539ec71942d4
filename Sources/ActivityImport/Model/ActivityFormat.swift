/// The file formats Summit reads.
public enum ActivityFormat: String, Sendable, CaseIterable, Codable {
    case gpx, tcx, fit, slopes
    /// Ski Tracks `.skiz` export.
    case skiz

    /// The `imported_runs.source` value. The spec's list predates Ski Tracks
    /// support, so its exports get a source of their own, `skitracks`.
    public var source: String { self == .skiz ? "skitracks" : rawValue }
}
