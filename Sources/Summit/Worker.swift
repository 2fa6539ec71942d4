import Foundation
import Postgres
import Relay

/// `summit worker`: the long-running half of Summit. It holds the realtime relay
/// (one listening connection for every subscriber this process serves) and runs
/// the periodic jobs through a `Scheduler`, each as the service role.
///
/// Several workers may run against one database: every listener sees every
/// notification, and each job runs under a lease in PostgreSQL, so two workers
/// never run the same job at once and a job runs once per interval.
public actor Worker {
    public struct Options: Sendable {
        /// How often expired live positions are removed (spec §7.2: every 5 minutes).
        public var presenceSweepInterval: Duration
        /// How often the relay's figures go to the log.
        public var reportInterval: Duration
        /// How often pending meet requests past their expiry expire (spec §8.3: every 2 minutes).
        public var meetRequestSweepInterval: Duration
        /// How often configured status feeds are checked (the seed's minute clock):
        /// each refreshes within two minutes of its status expiring.
        public var statusCheckInterval: Duration
        /// How often configured forecasts are checked; each merges hourly.
        public var weatherCheckInterval: Duration
        /// How often the storage sweep removes the files of deleted photos, moments and accounts.
        public var storageSweepInterval: Duration
        /// Delivers queued push notifications, answering a summary; run every
        /// `outboxDeliveryInterval` under its own lease. Nil: no delivery job.
        public var outboxDelivery: ScheduledJob.Body?
        public var outboxDeliveryInterval: Duration

        public init(presenceSweepInterval: Duration = .seconds(300), reportInterval: Duration = .seconds(60),
                    meetRequestSweepInterval: Duration = .seconds(120), statusCheckInterval: Duration = .seconds(60),
                    weatherCheckInterval: Duration = .seconds(60), storageSweepInterval: Duration = .seconds(60),
                    outboxDelivery: ScheduledJob.Body? = nil, outboxDeliveryInterval: Duration = .seconds(10)) {
            self.presenceSweepInterval = presenceSweepInterval
            self.reportInterval = reportInterval
            self.meetRequestSweepInterval = meetRequestSweepInterval
            self.statusCheckInterval = statusCheckInterval
            self.weatherCheckInterval = weatherCheckInterval
            self.storageSweepInterval = storageSweepInterval
            self.outboxDelivery = outboxDelivery
            self.outboxDeliveryInterval = outboxDeliveryInterval
        }
    }

    public nonisolated let configuration: PostgresConfiguration
    let options: Options
    let log: @Sendable (String) -> Void
    /// The relay, once `run` started it; a gateway in this process attaches its subscribers here.
    public private(set) var relay: Relay?

    public init(_ configuration: PostgresConfiguration, options: Options = Options(), log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.options = options
        self.log = log
    }

    /// Removes live positions the server has not heard about for the TTL; returns how many.
    public static func sweepPresence(on connection: PostgresConnection) async throws -> Int {
        try await connection.query("select meet.sweep_live_presence()", as: .serviceRole).scalar(Int.self)
    }

    /// Expires pending meet requests past their expiry; returns how many.
    public static func sweepMeetRequests(on connection: PostgresConnection) async throws -> Int {
        try await connection.query("select meet.expire_stale_meet_requests()", as: .serviceRole).scalar(Int.self)
    }

    /// Removes the queued files of deleted photos, moments and accounts (never one a live
    /// row points at); returns the sweep's counts.
    public static func sweepStorage(on connection: PostgresConnection) async throws -> StorageSweep {
        try await connection.query("select private.sweep_storage_deletions(500)", as: .serviceRole).scalar(PostgresJSON<StorageSweep>.self).value
    }

    public struct StorageSweep: Codable, Sendable {
        public var removed: Int
        public var absent: Int
        public var in_use: Int
        public var failed: Int
        public var pending: Int
    }

    /// The periodic jobs, by the names their leases carry (and the pg_cron table in docs/feeds-and-jobs.md).
    public static func jobs(_ options: Options, log: @escaping @Sendable (String) -> Void) -> [ScheduledJob] {
        var jobs = [
            ScheduledJob(name: "meet-request-expiry", every: options.meetRequestSweepInterval) { db in
                let expired = try await sweepMeetRequests(on: db)
                return expired == 0 ? "" : "expired \(expired) stale meet request\(expired == 1 ? "" : "s")"
            },
            ScheduledJob(name: "presence-sweep", every: options.presenceSweepInterval) { db in
                let swept = try await sweepPresence(on: db)
                return swept == 0 ? "" : "swept \(swept) expired live position\(swept == 1 ? "" : "s")"
            },
            ScheduledJob(name: "storage-sweep", every: options.storageSweepInterval) { db in
                let sweep = try await sweepStorage(on: db)
                guard sweep.removed + sweep.absent + sweep.in_use + sweep.failed > 0 else { return "" }
                return "storage sweep: removed \(sweep.removed) file\(sweep.removed == 1 ? "" : "s"), \(sweep.absent) already gone, "
                    + "\(sweep.in_use) kept (a live row points at them), \(sweep.failed) failed (retried later), \(sweep.pending) pending"
            },
            ScheduledJob(name: "status-refresh", every: options.statusCheckInterval) { db in
                try await FeedRefreshJobs.refreshDueStatus(on: db, log: log)
            },
            ScheduledJob(name: "weather-refresh", every: options.weatherCheckInterval) { db in
                try await FeedRefreshJobs.refreshDueWeather(on: db, log: log)
            },
        ]
        if let deliver = options.outboxDelivery {
            jobs.append(ScheduledJob(name: "outbox-delivery", every: options.outboxDeliveryInterval, body: deliver))
        }
        return jobs
    }

    /// Runs until the task is cancelled. A failed job is logged and tried again at
    /// its next turn; the relay reconnects by itself.
    public func run() async throws {
        let relay = try await Relay(configuration)
        self.relay = relay
        let jobs = Self.jobs(options, log: log)
        let workerName = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
        let scheduler = Scheduler(configuration, jobs: jobs, workerName: workerName, log: log)
        log("worker: relay listening; jobs \(jobs.map { "\($0.name) every \(Self.describe($0.every))" }.joined(separator: ", "))")
        let scheduling = Task { await scheduler.run() }
        let clock = ContinuousClock()
        var nextReport = clock.now + options.reportInterval
        while !Task.isCancelled {
            try? await Task.sleep(until: nextReport)
            if Task.isCancelled { break }
            let figures = await relay.currentStatistics
            log("worker: relay \(figures.subscribers) subscribers, \(figures.notifications) notifications, "
                + "\(figures.delivered) delivered, \(figures.droppedTotal) dropped, \(figures.gaps) gaps")
            nextReport = clock.now + options.reportInterval
        }
        scheduling.cancel()
        await scheduling.value
        await relay.close()
        self.relay = nil
        log("worker: stopped")
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds >= 60 && seconds.truncatingRemainder(dividingBy: 60) == 0
            ? "\(Int(seconds / 60)) min" : "\(seconds.formatted()) s"
    }
}
