import Foundation

/// One changed row waiting to be pushed, with its retry bookkeeping (spec §6.2).
public struct QueueEntry: Sendable, Hashable {
    public var table: SyncedTable
    public var rowID: UUID
    /// Counts the local writes to the row; an answer applies only to the version pushed.
    public var version: Int
    public var queuedAt: Timestamp
    public var attempts: Int
    public var firstFailedAt: Timestamp?
    public var nextAttemptAt: Timestamp?
    /// The last failure: "transport", a SQLSTATE, or the server's P0001 message.
    public var lastError: String?
    public var couldntSync: Bool

    /// Where the entry is in its retry schedule.
    public enum State: Sendable, Hashable {
        /// Not tried yet, or changed again since it last failed.
        case waiting
        /// Failed `attempts` times; tried again at `next`.
        case retrying(attempts: Int, next: Timestamp)
        /// Failed for seven days: no more automatic tries until Try again.
        case couldntSync
    }

    public var state: State {
        if couldntSync { return .couldntSync }
        if attempts > 0, let nextAttemptAt { return .retrying(attempts: attempts, next: nextAttemptAt) }
        return .waiting
    }
}
