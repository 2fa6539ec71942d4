import Foundation

/// One session's queue of work for its writer: messages ready to send, and row
/// changes still to be read under the subscriber's RLS. Bounded, never waits for
/// the producer: broadcasts are the first to go when a reader falls behind (counted),
/// and a session whose queue is full of what may not be dropped is told to close.
final class Outbox: @unchecked Sendable {
    enum Item: Sendable {
        /// A message to send as is; `droppable` for broadcasts (newer ones follow).
        case text(String, droppable: Bool)
        /// A row changed: find the channels of this session that want it.
        case change(ChangeNotice)
    }

    let capacity: Int
    private let lock = NSLock()
    private var queue: [Item] = []
    private var head = 0
    private var waiter: CheckedContinuation<Item?, Never>?
    private var finished = false
    private(set) var dropped = 0
    /// Set when something that may not be dropped did not fit.
    private(set) var overflowed = false

    init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// Queues `item`. Returns false when the session should be closed for falling behind.
    @discardableResult
    func push(_ item: Item) -> Bool {
        let (wake, ok): (CheckedContinuation<Item?, Never>?, Bool) = lock.withLock {
            guard !finished else { return (nil, true) }
            if let waiter {
                self.waiter = nil
                return (waiter, true)
            }
            if queue.count - head >= capacity {
                // Make room by dropping the oldest broadcast; failing that, give up on this reader.
                if let index = queue[head...].firstIndex(where: { if case .text(_, true) = $0 { true } else { false } }) {
                    queue.remove(at: index)
                    dropped += 1
                } else {
                    overflowed = true
                    return (nil, false)
                }
            }
            queue.append(item)
            return (nil, true)
        }
        wake?.resume(returning: item)
        return ok
    }

    /// The next item, waiting for one; nil once finished and drained.
    func next() async -> Item? {
        await withCheckedContinuation { continuation in
            let ready: Item?? = lock.withLock {
                if head < queue.count {
                    let item = queue[head]
                    head += 1
                    if head > 256 && head * 2 > queue.count {
                        queue.removeFirst(head)
                        head = 0
                    }
                    return .some(item)
                }
                if finished { return .some(nil) }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func finish() {
        let wake: CheckedContinuation<Item?, Never>? = lock.withLock {
            finished = true
            defer { waiter = nil }
            return waiter
        }
        wake?.resume(returning: nil)
    }
}

/// A `changes:{user}` notification: which row of which table changed, and how.
struct ChangeNotice: Sendable {
    var schema: String
    var table: String
    /// INSERT, UPDATE or DELETE.
    var type: String
    /// The primary key's columns and values, as JSON text.
    var keyJSON: String
    var key: [String: String]
    var commitTimestamp: String
    /// The subscriber it was for.
    var user: UUID

    init?(payload: String, user: UUID) {
        guard let object = JSONText.parse(payload) as? [String: Any], let schema = object["schema"] as? String,
              let table = object["table"] as? String, let type = object["type"] as? String,
              let key = object["key"] as? [String: Any] else { return nil }
        self.schema = schema
        self.table = table
        self.type = type
        self.key = key.compactMapValues { value in
            switch value {
            case let text as String: text
            case let number as NSNumber: number.stringValue
            default: nil
            }
        }
        keyJSON = JSONText.serialize(key)
        commitTimestamp = object["at"] as? String ?? ""
        self.user = user
    }
}
