import Foundation

/// What one sync did.
public struct SyncReport: Sendable, Hashable {
    /// Pushed rows by outcome (`applied`, `corrected`, `ignored`, `error`).
    public var pushed: [PushOutcome.Kind: Int] = [:]
    /// Codes of the rows that failed, for the person to see ("couldn't sync" shows the last one).
    public var failures: [String] = []
    public var pulled = 0
    public var groupsJoined: [UUID] = []
    public var groupsLeft: [UUID] = []
    public var unshared = 0
    public var photosUploaded = 0
    public var photosDownloaded = 0

    public init() {}

    public var pushedCount: Int { pushed.values.reduce(0, +) }

    mutating func count(_ outcome: PushOutcome) {
        pushed[outcome.kind, default: 0] += 1
        if outcome.kind == .error { failures.append(outcome.code ?? "error") }
    }
}
