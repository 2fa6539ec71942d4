import Foundation

/// The process-wide memory of recent solves: least recently used first out,
/// 128 entries, safe to share between threads.
public final class SolutionCache: @unchecked Sendable {
    public static let shared = SolutionCache(capacity: 128)

    public let capacity: Int
    private let lock = NSLock()
    private var entries: [SolveCacheKey: Result<MeetingResult, MeetFailure>] = [:]
    /// Least recently used first.
    private var recency: [SolveCacheKey] = []

    public init(capacity: Int) {
        precondition(capacity > 0, "a cache needs room for at least one solution")
        self.capacity = capacity
    }

    public func value(for key: SolveCacheKey) -> Result<MeetingResult, MeetFailure>? {
        lock.lock()
        defer { lock.unlock() }
        guard let value = entries[key] else { return nil }
        touch(key)
        return value
    }

    public func store(_ value: Result<MeetingResult, MeetFailure>, for key: SolveCacheKey) {
        lock.lock()
        defer { lock.unlock() }
        if entries.updateValue(value, forKey: key) != nil {
            touch(key)
            return
        }
        recency.append(key)
        if recency.count > capacity {
            entries[recency.removeFirst()] = nil
        }
    }

    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries = [:]
        recency = []
    }

    private func touch(_ key: SolveCacheKey) {
        if let index = recency.firstIndex(of: key) { recency.remove(at: index) }
        recency.append(key)
    }
}
