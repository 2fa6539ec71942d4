import Digest

/// One skier's learned per-edge speeds at one resort.
public struct SpeedHistory: Sendable, Equatable {
    public static func == (a: SpeedHistory, b: SpeedHistory) -> Bool { a.rows == b.rows }

    /// Sorted by (edge, fingerprint, equipment).
    public let rows: [EdgeSpeedObservation]
    private let byEdge: [String: [EdgeSpeedObservation]]
    /// SHA-256 over every field of every row: the history's part of the cache key.
    public let digest: String

    public init(_ rows: [EdgeSpeedObservation] = []) {
        let sorted = rows.sorted { a, b in
            if a.edgeID != b.edgeID { return a.edgeID.utf8.lexicographicallyPrecedes(b.edgeID.utf8) }
            if a.conditionsFingerprint != b.conditionsFingerprint {
                return a.conditionsFingerprint.utf8.lexicographicallyPrecedes(b.conditionsFingerprint.utf8)
            }
            return a.equipmentKey.utf8.lexicographicallyPrecedes(b.equipmentKey.utf8)
        }
        self.rows = sorted
        self.byEdge = Dictionary(grouping: sorted, by: \.edgeID)
        self.digest = SHA256.hex(Array(sorted.map(\.canonicalLine).joined(separator: "\n").utf8))
    }

    public static let empty = SpeedHistory()

    /// Whether any row is about this edge (so the live conditions bucket is worth working out).
    func hasRows(for edgeID: String) -> Bool { byEdge[edgeID] != nil }

    /// The observation routing uses for an edge: the bucket of the live
    /// conditions, else `default`, else the bucket with most observations
    /// (ties: the smallest fingerprint); only rows of the skier's current
    /// equipment count, and only a trusted one (three or more observations) is used.
    func observation(edgeID: String, liveFingerprint: String, equipmentKey: String) -> EdgeSpeedObservation? {
        guard let candidates = byEdge[edgeID]?.filter({ $0.equipmentKey == equipmentKey }), !candidates.isEmpty else { return nil }
        let chosen = candidates.first { $0.conditionsFingerprint == liveFingerprint }
            ?? candidates.first { $0.conditionsFingerprint == "default" }
            ?? candidates.min { a, b in
                a.observationCount != b.observationCount
                    ? a.observationCount > b.observationCount
                    : a.conditionsFingerprint.utf8.lexicographicallyPrecedes(b.conditionsFingerprint.utf8)
            }
        guard let chosen, chosen.isTrusted else { return nil }
        return chosen
    }
}
