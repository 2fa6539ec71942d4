/// When a queue entry that failed is tried again (seed, "Sync"): after 1 s,
/// 10 s, 1 min, 10 min, then hourly; seven days after its first failure it is
/// marked "couldn't sync" and waits for Try again.
public struct RetrySchedule: Sendable, Hashable {
    /// Seconds after the 1st, 2nd, … failure.
    public var delays: [Double] = [1, 10, 60, 600]
    /// Seconds between tries once `delays` are used up.
    public var thereafter: Double = 3600
    /// Seconds after the first failure when an entry stops being retried.
    public var giveUpAfter: Double = 7 * 24 * 3600

    public init() {}

    /// The delay after the `attempts`-th failure (1-based).
    public func delay(afterAttempts attempts: Int) -> Double {
        attempts >= 1 && attempts <= delays.count ? delays[attempts - 1] : thereafter
    }

    /// The entry after one more failure at `now`.
    public func failed(_ entry: QueueEntry, code: String, at now: Timestamp) -> QueueEntry {
        var entry = entry
        entry.attempts += 1
        entry.lastError = code
        let first = entry.firstFailedAt ?? now
        entry.firstFailedAt = first
        if now - first >= giveUpAfter {
            entry.couldntSync = true
            entry.nextAttemptAt = nil
        } else {
            entry.nextAttemptAt = now + delay(afterAttempts: entry.attempts)
        }
        return entry
    }
}
