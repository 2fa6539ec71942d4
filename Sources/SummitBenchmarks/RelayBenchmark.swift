import Foundation
import Summit
import Postgres
import Relay

/// What the realtime path costs against PostgreSQL's own NOTIFY ceiling.
///
/// Both runs use the same number of publishing connections, each a loop of
/// one-round-trip transactions that do not wait for their WAL flush:
///
/// (a) the raw ceiling: `select pg_notify('pos:resort:…', packet)` and one plain
///     listener counting what arrives;
/// (b) Summit: `meet.broadcast_position` as each user (role, claims, checks,
///     upsert, two notifies), and the relay fanning out to `subscribers`
///     subscribers on that resort, each a friend of `friendsPerSubscriber`
///     publishers (a ring: everyone publishes, everyone watches their friends).
///
/// Then (b) again, paced at half its peak rate, for publish-to-delivery latency:
/// from the sample's capture time, stamped just before it is sent, to the moment
/// the subscriber's consumer has it.
public struct RelayBenchmark: Sendable {
    public struct Settings: Sendable {
        public var subscribers: Int
        public var friendsPerSubscriber: Int
        public var connections: Int
        public var seconds: Double
        /// Unmeasured time at the start of each run, so it measures a warm system.
        public var warmUpSeconds: Double

        public init(subscribers: Int = 1000, friendsPerSubscriber: Int = 20, connections: Int = 4,
                    seconds: Double = 5, warmUpSeconds: Double = 1) {
            self.subscribers = subscribers
            self.friendsPerSubscriber = friendsPerSubscriber
            self.connections = connections
            self.seconds = seconds
            self.warmUpSeconds = warmUpSeconds
        }
    }

    public struct Result: Sendable, Encodable {
        public var subscribers: Int
        public var friendsPerSubscriber: Int
        public var connections: Int
        public var seconds: Double
        /// (a) publishes per second, and notifications per second the plain listener received.
        public var rawPublishesPerSecond: Double
        public var rawDeliveriesPerSecond: Double
        /// (b) at peak: publishes per second, and positions per second subscribers received.
        public var summitPublishesPerSecond: Double
        public var summitDeliveriesPerSecond: Double
        /// (b) paced at half the peak.
        public var halfLoadTargetPerSecond: Double
        public var halfLoadPublishesPerSecond: Double
        public var halfLoadDeliveriesPerSecond: Double
        public var halfLoadP50Milliseconds: Double
        public var halfLoadP99Milliseconds: Double
        /// Positions replaced in full subscriber buffers over the whole of (b).
        public var overflowDrops: Int
        /// Positions a subscriber received from someone not its friend: must be 0.
        public var misdelivered: Int
        public var ratio: Double { summitPublishesPerSecond / rawPublishesPerSecond }

        enum CodingKeys: String, CodingKey {
            case subscribers, friendsPerSubscriber = "friends_per_subscriber", connections, seconds
            case rawPublishesPerSecond = "raw_publishes_per_second", rawDeliveriesPerSecond = "raw_deliveries_per_second"
            case summitPublishesPerSecond = "summit_publishes_per_second"
            case summitDeliveriesPerSecond = "summit_deliveries_per_second"
            case halfLoadTargetPerSecond = "half_load_target_per_second"
            case halfLoadPublishesPerSecond = "half_load_publishes_per_second"
            case halfLoadDeliveriesPerSecond = "half_load_deliveries_per_second"
            case halfLoadP50Milliseconds = "half_load_p50_ms", halfLoadP99Milliseconds = "half_load_p99_ms"
            case overflowDrops = "overflow_drops", misdelivered, ratio
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(subscribers, forKey: .subscribers)
            try container.encode(friendsPerSubscriber, forKey: .friendsPerSubscriber)
            try container.encode(connections, forKey: .connections)
            try container.encode(seconds, forKey: .seconds)
            try container.encode(rawPublishesPerSecond, forKey: .rawPublishesPerSecond)
            try container.encode(rawDeliveriesPerSecond, forKey: .rawDeliveriesPerSecond)
            try container.encode(summitPublishesPerSecond, forKey: .summitPublishesPerSecond)
            try container.encode(summitDeliveriesPerSecond, forKey: .summitDeliveriesPerSecond)
            try container.encode(halfLoadTargetPerSecond, forKey: .halfLoadTargetPerSecond)
            try container.encode(halfLoadPublishesPerSecond, forKey: .halfLoadPublishesPerSecond)
            try container.encode(halfLoadDeliveriesPerSecond, forKey: .halfLoadDeliveriesPerSecond)
            try container.encode(halfLoadP50Milliseconds, forKey: .halfLoadP50Milliseconds)
            try container.encode(halfLoadP99Milliseconds, forKey: .halfLoadP99Milliseconds)
            try container.encode(overflowDrops, forKey: .overflowDrops)
            try container.encode(misdelivered, forKey: .misdelivered)
            try container.encode(ratio, forKey: .ratio)
        }
    }

    public var settings: Settings
    static let resort = "bench"
    static let rawChannel = "pos:resort:bench-raw"
    /// The raw packets' label while the window is measured: the listener counts those.
    static let measuredLabel = "bench-m"
    static let measuredMark = #""n":"\#(measuredLabel)""#

    public init(_ settings: Settings) {
        self.settings = settings
    }

    /// Runs (a), (b) and (b) at half load in `database` (a scratch database: it adds people to it).
    public func run(on database: PostgresConfiguration, progress: @escaping @Sendable (String) -> Void) async throws -> Result {
        let settings = settings
        guard settings.subscribers > settings.friendsPerSubscriber, settings.friendsPerSubscriber >= 2,
              settings.friendsPerSubscriber % 2 == 0 else {
            throw CLIError("each of the \(settings.subscribers) subscribers needs an even number of friends, at least 2 and fewer than the subscribers",
                           fix: "give --friends an even number below --subscribers")
        }
        progress("adding \(settings.subscribers) people, each with \(settings.friendsPerSubscriber) friends…")
        let people = try await PostgresConnection.withConnection(database, applicationName: "summit bench") { connection in
            try await addPeople(on: connection)
        }
        let publishers = try await connectPublishers(database)
        defer { Task { for publisher in publishers { await publisher.close() } } }

        progress("(a) raw pg_notify ceiling: \(settings.connections) connections for \(settings.seconds.formatted()) s…")
        let raw = try await runRaw(database, publishers: publishers, people: people)

        progress("(b) starting the relay and \(settings.subscribers) subscribers on \(Self.resort)…")
        let relay = try await Relay(database, options: Relay.Options(mailboxCapacity: 256, readerConnections: 4))
        do {
            let tally = Tally()
            try await subscribeEveryone(people, to: relay, tally: tally)
            progress("(b) Summit: broadcast_position and fan-out, \(settings.connections) connections for \(settings.seconds.formatted()) s…")
            let peak = try await measure(publishers: publishers, people: people, tally: tally, ratePerSecond: nil)
            try await Task.sleep(for: .seconds(1))
            let target = peak.publishes / 2
            progress("(b) at half load: \(Int(target)) publishes/s for \(settings.seconds.formatted()) s…")
            let half = try await measure(publishers: publishers, people: people, tally: tally, ratePerSecond: target)
            let statistics = await relay.currentStatistics
            await relay.close()
            return Result(
                subscribers: settings.subscribers, friendsPerSubscriber: settings.friendsPerSubscriber,
                connections: settings.connections, seconds: settings.seconds,
                rawPublishesPerSecond: raw.publishes, rawDeliveriesPerSecond: raw.deliveries,
                summitPublishesPerSecond: peak.publishes, summitDeliveriesPerSecond: peak.deliveries,
                halfLoadTargetPerSecond: target, halfLoadPublishesPerSecond: half.publishes,
                halfLoadDeliveriesPerSecond: half.deliveries,
                halfLoadP50Milliseconds: Self.percentile(half.latencies, 0.50),
                halfLoadP99Milliseconds: Self.percentile(half.latencies, 0.99),
                overflowDrops: statistics.dropped[.overflow, default: 0], misdelivered: tally.misdelivered)
        } catch {
            await relay.close()
            throw error
        }
    }

    // MARK: setting up

    /// The people (publishers and subscribers at once) and a ring of friendships:
    /// everyone is friends with the `friendsPerSubscriber / 2` people on each side.
    private func addPeople(on connection: PostgresConnection) async throws -> [UUID] {
        let count = settings.subscribers, half = settings.friendsPerSubscriber / 2
        try await connection.query("""
            insert into auth.users (id, email, raw_user_meta_data)
            select md5('relay-bench:' || i)::uuid, 'bench' || i || '@bench.test',
                   jsonb_build_object('username', 'bench' || lpad(i::text, 5, '0'))
            from generate_series(1, \(count)) i
            """)
        try await connection.query("""
            insert into social.friendships (user_a, user_b)
            select least(a, b), greatest(a, b)
            from (select md5('relay-bench:' || i)::uuid as a,
                         md5('relay-bench:' || (1 + (i - 1 + k) % \(count)))::uuid as b
                  from generate_series(1, \(count)) i, generate_series(1, \(half)) k) pairs
            on conflict do nothing
            """)
        let people = try await connection.query("""
            select md5('relay-bench:' || i)::uuid from generate_series(1, \(count)) i order by i
            """).decode(UUID.self)
        let friendships = try await connection.query("select count(*) from social.friendships").scalar(Int.self)
        guard friendships == count * half else {
            throw CLIError("the benchmark made \(friendships) friendships, not \(count * half)",
                           fix: "use fewer friends than half the subscribers")
        }
        return people
    }

    private func connectPublishers(_ database: PostgresConfiguration) async throws -> [PostgresConnection] {
        var publishers: [PostgresConnection] = []
        for _ in 0..<settings.connections {
            publishers.append(try await PostgresConnection.connect(database, applicationName: "summit bench publisher"))
        }
        return publishers
    }

    private func subscribeEveryone(_ people: [UUID], to relay: Relay, tally: Tally) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            let half = settings.friendsPerSubscriber / 2
            for (index, person) in people.enumerated() {
                if started >= 32 { try await group.next() }
                started += 1
                // The ring's neighbours on both sides: whom this subscriber may hear from.
                let friends = Set((1...half).flatMap { step in
                    [people[(index + step) % people.count], people[(index - step + people.count) % people.count]]
                })
                group.addTask {
                    let subscription = try await relay.subscribe(user: person)
                    Task.detached { await Self.consume(subscription, friends: friends, into: tally) }
                    guard try await subscription.enter(resort: Self.resort) else {
                        throw CLIError("a subscriber did not go live", fix: "run the benchmark again")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// One subscriber's consumer: takes whole bursts, notes when each position was sent
    /// and how long it took to arrive, and checks that it came from a friend.
    private static func consume(_ subscription: RelaySubscription, friends: Set<UUID>, into tally: Tally) async {
        while let batch = await subscription.nextBatch() {
            let now = Date().timeIntervalSince1970
            var sent: [Double] = [], latencies: [Double] = []
            sent.reserveCapacity(batch.count)
            latencies.reserveCapacity(batch.count)
            var strangers = 0
            for event in batch {
                if case .position(let position) = event {
                    let captured = Double(position.packet.capturedMicros) / 1_000_000
                    sent.append(captured)
                    latencies.append((now - captured) * 1000)
                    if !friends.contains(position.packet.userID) { strangers += 1 }
                }
            }
            if !sent.isEmpty { tally.record(sent: sent, latencies: latencies) }
            if strangers > 0 { tally.misdeliver(strangers) }
        }
    }

    // MARK: measuring

    private struct Measurement {
        var publishes: Double
        var deliveries: Double
        var latencies: [Double] = []
    }

    /// (a): publishers notify the raw channel; one plain listener counts.
    private func runRaw(_ database: PostgresConfiguration, publishers: [PostgresConnection], people: [UUID]) async throws -> Measurement {
        let listener = try await PostgresListener(database, channels: [Self.rawChannel])
        let tally = Tally()
        // Each packet says whether it was sent in the measured window, so a listener task
        // that a busy machine runs late still counts what it received, not zero.
        let counting = Task.detached {
            for await event in listener.events {
                if case .notification(let notification) = event, notification.payload.contains(Self.measuredMark) {
                    tally.add()
                }
            }
        }
        defer {
            listener.close()
            counting.cancel()
        }
        for publisher in publishers { try await publisher.simpleQuery("set synchronous_commit = off") }
        let window = Window(warmUp: settings.warmUpSeconds, length: settings.seconds)
        tally.open(window)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, publisher) in publishers.enumerated() {
                let mine = Self.share(of: people, index: index, of: publishers.count)
                group.addTask {
                    var published = 0, turn = 0
                    while let now = window.running() {
                        let user = mine[turn % mine.count]
                        turn += 1
                        let measured = now >= window.measureStart
                        let packet = Self.packet(user: user, turn: turn, at: now, measured: measured)
                        try await publisher.query("select pg_notify(\(Self.rawChannel), \(packet))")
                        if measured { published += 1 }
                    }
                    return published
                }
            }
            return try await group.reduce(0, +)
        }
        try await tally.settle(expecting: counts)
        for publisher in publishers { try await publisher.simpleQuery("reset synchronous_commit") }
        return Measurement(publishes: Double(counts) / settings.seconds, deliveries: Double(tally.count) / settings.seconds)
    }

    /// (b): publishers call broadcast_position as their users, closed loop (`ratePerSecond`
    /// nil) or paced; subscribers' consumers count and time what arrives.
    private func measure(publishers: [PostgresConnection], people: [UUID], tally: Tally,
                         ratePerSecond: Double?) async throws -> Measurement {
        let window = Window(warmUp: settings.warmUpSeconds, length: settings.seconds)
        tally.open(window, keepingLatencies: ratePerSecond != nil)
        let connections = publishers.count
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, publisher) in publishers.enumerated() {
                let mine = Self.share(of: people, index: index, of: connections)
                // Paced: this connection's share of the rate, on a fixed schedule that does not drift.
                // A rate of zero (a machine too busy to publish at all) paces nothing.
                let interval = ratePerSecond.flatMap { $0 > 0 && $0.isFinite ? Double(connections) / $0 : nil }
                group.addTask {
                    var published = 0, turn = 0
                    let begin = Date()
                    while let now = window.running() {
                        if let interval {
                            let due = begin.addingTimeInterval(Double(turn) * interval)
                            let wait = due.timeIntervalSinceNow
                            if wait > 0 { try await Task.sleep(for: .milliseconds(Int64(min(wait, settings.seconds) * 1000))) }
                        }
                        let user = mine[turn % mine.count]
                        turn += 1
                        let sample = Self.sample(user: user, turn: turn, at: Date())
                        _ = try await PositionPublisher.publish(sample, as: user, on: publisher)
                        if now >= window.measureStart { published += 1 }
                    }
                    return published
                }
            }
            return try await group.reduce(0, +)
        }
        // Every delivery sent in the window counted, and the next run starts from a quiet relay.
        try await tally.settle()
        return Measurement(publishes: Double(counts) / settings.seconds, deliveries: Double(tally.count) / settings.seconds,
                           latencies: tally.latencies)
    }

    static func share(of people: [UUID], index: Int, of count: Int) -> [UUID] {
        stride(from: index, to: people.count, by: count).map { people[$0] }
    }

    /// A spot near Vail's base for each person, a few metres further every turn.
    static func sample(user: UUID, turn: Int, at date: Date) -> PositionSample {
        let spread = Double(user.uuid.0) / 255 * 0.02
        return PositionSample(resortID: resort, latitude: 39.60 + spread + Double(turn % 100) * 0.00001,
                              longitude: -106.37 + spread, capturedAt: date, accuracy: 5)
    }

    /// The raw run's payload: a packet of the same shape and size as the relay's. Its
    /// label says whether it was sent in the measured window (`measuredMark`) or before.
    static func packet(user: UUID, turn: Int, at date: Date, measured: Bool) -> String {
        let sample = sample(user: user, turn: turn, at: date)
        let label = measured ? measuredLabel : "bench-w"
        return #"{"u":"\#(user.uuidString.lowercased())","n":"\#(label)","lat":\#(sample.latitude),"lon":\#(sample.longitude),"#
            + #""at":\#(String(format: "%.6f", date.timeIntervalSince1970)),"acc":5,"r":"\#(resort)"}"#
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

/// A run's time: a warm-up, then the measured part.
struct Window: Sendable {
    let measureStart: Date
    let end: Date

    init(warmUp: Double, length: Double) {
        measureStart = Date().addingTimeInterval(warmUp)
        end = measureStart.addingTimeInterval(length)
    }

    /// Now, while the run lasts.
    func running() -> Date? {
        let now = Date()
        return now < end ? now : nil
    }
}

/// Deliveries of what was sent inside the current window (and their latencies), from many consumers.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var window: Window?
    private var keepLatencies = false
    private var counted = 0
    private var kept: [Double] = []
    private var strangers = 0

    func open(_ window: Window, keepingLatencies: Bool = false) {
        lock.withLock {
            self.window = window
            keepLatencies = keepingLatencies
            counted = 0
            kept.removeAll()
        }
    }

    /// Waits for deliveries still on their way: until `expected` are counted, or else
    /// until the count holds still for a quarter of a second; at most 10 s.
    func settle(expecting expected: Int? = nil) async throws {
        let giveUp = ContinuousClock.now + .seconds(10)
        var before = -1
        while ContinuousClock.now < giveUp {
            let now = count
            if let expected, now >= expected { return }
            if expected == nil, now == before { return }
            before = now
            try await Task.sleep(for: .milliseconds(expected == nil ? 250 : 20))
        }
    }

    /// One delivery, whenever it arrived: the caller decided that it counts.
    func add() { lock.withLock { counted += 1 } }

    /// Deliveries of positions sent at `sent` (Unix seconds), with their latencies: those
    /// sent in the window count, whenever a busy machine let the consumer run.
    func record(sent: [Double], latencies: [Double]) {
        lock.withLock {
            guard let window else { return }
            let start = window.measureStart.timeIntervalSince1970, end = window.end.timeIntervalSince1970
            for (index, at) in sent.enumerated() where at >= start && at < end {
                counted += 1
                if keepLatencies { kept.append(latencies[index]) }
            }
        }
    }

    /// Deliveries from a non-friend, whenever they happened.
    func misdeliver(_ count: Int) { lock.withLock { strangers += count } }

    var misdelivered: Int { lock.withLock { strangers } }
    var count: Int { lock.withLock { counted } }
    var latencies: [Double] { lock.withLock { kept } }
}
