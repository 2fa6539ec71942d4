import Foundation
import Postgres

/// One subscriber of a relay: a user watching one resort at a time.
///
/// `enter(resort:)` runs the presence lifecycle to `live`; `events` streams what
/// the relay delivers, oldest first. `stop()` returns at once (for rapid resort
/// clears); `stopAndWait()` returns once the channels are released (sign-out, so
/// a new session cannot overlap this one). `close()` also ends `events`.
public final class RelaySubscription: Sendable {
    public let id: Int
    public let user: UUID
    let relay: Relay
    let mailbox: RelayMailbox

    init(id: Int, user: UUID, relay: Relay, mailbox: RelayMailbox) {
        self.id = id
        self.user = user
        self.relay = relay
        self.mailbox = mailbox
    }

    /// Enters `resort` (tearing down another one first). Returns true once live,
    /// false when a later `enter` or `stop` overtook this one.
    @discardableResult
    public func enter(resort: String) async throws -> Bool {
        try await relay.enter(id, resort: resort)
    }

    /// Starts leaving the resort and returns without waiting.
    public func stop() {
        let relay = relay, id = id
        Task { try? await relay.stop(id) }
    }

    /// Leaves the resort and returns once every channel is released.
    public func stopAndWait() async {
        try? await relay.stop(id)
    }

    /// Stops, ends `events`, and forgets the subscriber.
    public func close() async {
        await relay.remove(id)
    }

    public var phase: PresencePhase {
        get async { await relay.phase(of: id) }
    }

    /// Positions dropped because this subscriber's consumer fell behind.
    public var droppedCount: Int { mailbox.droppedCount }

    /// Every event queued since the last call, waiting for one if there is none;
    /// nil once the subscription is closed and drained. One call can take a
    /// whole burst, which is how a busy consumer keeps up.
    public func nextBatch() async -> [RelayEvent]? {
        await mailbox.next()
    }

    /// The delivered events one by one.
    public var events: Unbatched<Batches, RelayEvent> { Unbatched(Batches(mailbox: mailbox)) }

    /// The delivered events as the mailbox hands them over: everything queued at each wake-up.
    public struct Batches: AsyncSequence, Sendable {
        public typealias Failure = Never
        let mailbox: RelayMailbox

        public func makeAsyncIterator() -> Iterator { Iterator(mailbox: mailbox) }

        public struct Iterator: AsyncIteratorProtocol {
            let mailbox: RelayMailbox

            public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> [RelayEvent]? {
                await mailbox.next()
            }

            public mutating func next() async -> [RelayEvent]? { await mailbox.next() }
        }
    }
}
