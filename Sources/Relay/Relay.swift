import Foundation
import Postgres

/// The realtime relay: one listening connection per process, fanning position
/// packets, friendship changes and meet-request changes out to its subscribers.
///
/// Each subscriber is one user watching one resort. The relay LISTENs to exactly
/// the channels its subscribers need (`pos:resort:{id}` of each resort watched,
/// `friends:{id}` and `meets:{id}` of each user), ref-counted in a
/// `ChannelRegistry`. Unlike the hosted platform's broadcast it filters on the
/// server: a subscriber receives a position only from an accepted, unblocked
/// friend, according to a social snapshot read as that user, refreshed on the
/// user's `friends:{id}` events. Stored positions are read as the user too,
/// under row level security.
public actor Relay {
    public struct Options: Sendable {
        /// Events a subscriber's buffer holds before positions start replacing each other.
        public var mailboxCapacity: Int
        /// Connections for reading snapshots and stored positions as subscribers.
        public var readerConnections: Int
        /// The clock freshness is measured on.
        public var clock: @Sendable () -> Date

        public init(mailboxCapacity: Int = 256, readerConnections: Int = 2,
                    clock: @escaping @Sendable () -> Date = { Date() }) {
            self.mailboxCapacity = mailboxCapacity
            self.readerConnections = readerConnections
            self.clock = clock
        }
    }

    public nonisolated let configuration: PostgresConfiguration
    let options: Options
    let listener: PostgresListener
    /// The channels LISTENed, and who holds each.
    public nonisolated let registry: ChannelRegistry
    let reader: PostgresPool

    var subscribers: [Int: SubscriberRecord] = [:]
    var subscribersByUser: [UUID: Set<Int>] = [:]
    /// resort → sender → the subscribers on that resort whose filter admits the sender.
    /// Lets a packet reach its sender's friends without looking at anyone else.
    var followers: [String: [UUID: Set<Int>]] = [:]
    /// Subscribers with positions queued by `judge` whose consumers are not woken yet.
    var awaitingWake: [SubscriberRecord] = []
    var nextSubscriberID = 1
    /// channel → tap id → handler: raw subscriptions (see `tap`).
    var taps: [String: [Int: RelayTapHandler]] = [:]
    var statistics = RelayStatistics()
    var pump: Task<Void, Never>?
    var isClosed = false

    /// Connects the listening connection. Throws if PostgreSQL cannot be reached;
    /// later connection losses are retried, and subscribers are told of each gap.
    public init(_ configuration: PostgresConfiguration, options: Options = Options()) async throws {
        self.configuration = configuration
        self.options = options
        listener = try await PostgresListener(configuration)
        registry = ChannelRegistry(transport: listener)
        reader = PostgresPool(configuration, maxConnections: max(1, options.readerConnections),
                              applicationName: "summit-relay")
        let batches = listener.batches
        pump = Task { [weak self] in
            for await batch in batches {
                guard let self else { return }
                await self.handle(batch)
            }
        }
    }

    /// A new subscriber for `user`, idle until it enters a resort.
    public func subscribe(user: UUID) throws -> RelaySubscription {
        guard !isClosed else { throw RelayError.closed }
        let id = nextSubscriberID
        nextSubscriberID += 1
        let record = SubscriberRecord(id: id, user: user, mailbox: RelayMailbox(capacity: options.mailboxCapacity))
        subscribers[id] = record
        subscribersByUser[user, default: []].insert(id)
        statistics.subscribers = subscribers.count
        return RelaySubscription(id: id, user: user, relay: self, mailbox: record.mailbox)
    }

    /// What the relay has done so far.
    public var currentStatistics: RelayStatistics { statistics }

    /// The channels the listening connection is LISTENing on (or will again after a reconnect).
    public nonisolated var listeningChannels: Set<String> { listener.channels }

    /// Stops every subscriber, ends their streams, and closes the connections.
    public func close() async {
        guard !isClosed else { return }
        isClosed = true
        for record in subscribers.values { record.mailbox.finish() }
        subscribers.removeAll()
        taps.removeAll()
        subscribersByUser.removeAll()
        followers.removeAll()
        pump?.cancel()
        listener.close()
        await reader.close()
    }

    /// Removes a subscriber after stopping it.
    func remove(_ id: Int) async {
        guard let record = subscribers[id] else { return }
        _ = try? await stop(id)
        record.mailbox.finish()
        subscribers[id] = nil
        subscribersByUser[record.state.user]?.remove(id)
        if subscribersByUser[record.state.user]?.isEmpty == true { subscribersByUser[record.state.user] = nil }
        statistics.subscribers = subscribers.count
    }

    func phase(of id: Int) -> PresencePhase { subscribers[id]?.state.machine.phase ?? .idle }
}

/// One subscriber inside the relay (only ever touched on the relay's executor).
final class SubscriberRecord {
    let id: Int
    var state: SubscriberState
    let mailbox: RelayMailbox
    /// What `followers` holds for this subscriber, so exactly that can be removed.
    var indexed: (resort: String, senders: Set<UUID>)?
    /// The last presence operation queued; each waits for the one before.
    var lastOperation: Task<Void, Never>?
    /// Whether a social refresh loop is running.
    var refreshing = false
    /// Whether the relay's `awaitingWake` holds this subscriber.
    var awaitingWake = false

    init(id: Int, user: UUID, mailbox: RelayMailbox) {
        self.id = id
        state = SubscriberState(user: user)
        self.mailbox = mailbox
    }
}
