import Foundation

/// One subscriber's bounded buffer between the relay and its consumer.
///
/// The relay never waits for a consumer: a slow one must not stall the others.
/// When the buffer is full, a new position replaces the oldest one still queued
/// from the same sender (newest sample wins), or else the oldest queued position
/// of anyone; each replaced sample is counted as dropped. Other events (gaps,
/// social changes, meet requests, phases) are never dropped: they are rare, and
/// losing one would hide a state change rather than one sample of many.
public final class RelayMailbox: @unchecked Sendable {
    public let capacity: Int
    private let lock = NSLock()
    // Guarded by `lock`:
    private var queue: [RelayEvent] = []
    private var waiter: CheckedContinuation<[RelayEvent], Never>?
    private var finished = false
    private var dropped = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Positions dropped because the consumer fell behind.
    public var droppedCount: Int { lock.withLock { dropped } }

    /// Events waiting for the consumer.
    public var queuedCount: Int { lock.withLock { queue.count } }

    /// Queues `event` and wakes the consumer. Returns false if it replaced an older position (a drop).
    @discardableResult
    public func push(_ event: RelayEvent) -> Bool {
        let kept = enqueue(event)
        flush()
        return kept
    }

    /// Queues `event` without waking the consumer; `flush` does. The relay queues
    /// a whole batch of notifications first, so a consumer with several in it
    /// wakes once. Returns false if it replaced an older position (a drop).
    func enqueue(_ event: RelayEvent) -> Bool {
        lock.withLock {
            guard !finished else { return true }
            var kept = true
            if case .position(let position) = event, queue.count >= capacity {
                kept = false
                dropped += 1
                makeRoom(for: position.packet.userID)
            }
            queue.append(event)
            return kept
        }
    }

    /// Hands everything queued to the consumer if it is waiting.
    func flush() {
        let wake: (CheckedContinuation<[RelayEvent], Never>, [RelayEvent])? = lock.withLock {
            guard let waiter, !queue.isEmpty else { return nil }
            self.waiter = nil
            return (waiter, takeQueue())
        }
        if let (waiter, events) = wake { waiter.resume(returning: events) }
    }

    /// Removes one queued position: the sender's oldest if it has one, else the oldest of all.
    private func makeRoom(for sender: UUID) {
        var oldestPosition: Int?
        for index in queue.indices {
            guard case .position(let queued) = queue[index] else { continue }
            if queued.packet.userID == sender {
                queue.remove(at: index)
                return
            }
            if oldestPosition == nil { oldestPosition = index }
        }
        if let oldestPosition { queue.remove(at: oldestPosition) }
    }

    /// Everything queued, waiting for at least one event; nil once finished and drained.
    public func next() async -> [RelayEvent]? {
        if let ready = take() { return ready.isEmpty ? nil : ready }
        let events = await withCheckedContinuation { (continuation: CheckedContinuation<[RelayEvent], Never>) in
            let immediate: [RelayEvent]? = lock.withLock {
                if let ready = takeLocked() { return ready }
                waiter = continuation
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        return events.isEmpty ? nil : events
    }

    /// Queued events now (nil when none and not finished; empty when finished).
    private func take() -> [RelayEvent]? { lock.withLock { takeLocked() } }

    private func takeLocked() -> [RelayEvent]? {
        if !queue.isEmpty { return takeQueue() }
        return finished ? [] : nil
    }

    /// The queue, leaving it empty. (Keeping the capacity would copy it: the consumer holds the old buffer.)
    private func takeQueue() -> [RelayEvent] {
        let events = queue
        queue = []
        return events
    }

    /// Ends the stream: the consumer gets what is queued, then nil.
    public func finish() {
        let wake: CheckedContinuation<[RelayEvent], Never>? = lock.withLock {
            finished = true
            defer { waiter = nil }
            return waiter
        }
        wake?.resume(returning: [])
    }
}
