import MountainGraph

/// Whether a status sidecar may make a meet live, and if not, why.
public enum StatusUsability: Sendable, Equatable {
    case usable
    case missing
    case identityMismatch(status: String, dataset: String)
    case futureDated(secondsAhead: Double)
    case expired(secondsAgo: Double)

    /// The same identity as the dataset, observed no more than two minutes
    /// ahead of `now`, and not yet expired.
    public static func of(_ status: MountainStatus?, resortID: String, identity: DatasetVersion, now: Double) -> StatusUsability {
        guard let status else { return .missing }
        guard status.resortID == resortID, status.datasetVersion == identity else {
            return .identityMismatch(status: "\(status.resortID) \(status.datasetVersion)", dataset: "\(resortID) \(identity)")
        }
        if status.observedAt > now + MountainStatus.futureTolerance { return .futureDated(secondsAhead: status.observedAt - now) }
        if now >= status.expiresAt { return .expired(secondsAgo: now - status.expiresAt) }
        return .usable
    }

    public var isUsable: Bool { self == .usable }

    public var explanation: String {
        switch self {
        case .usable: return "the status is usable"
        case .missing: return "there is no operational status for this dataset"
        case let .identityMismatch(status, dataset): return "the status belongs to \(status), not to \(dataset)"
        case let .futureDated(ahead): return "the status is observed \(Int(ahead.rounded())) s in the future"
        case let .expired(ago): return "the status expired \(Int(ago.rounded())) s ago"
        }
    }
}
