import Foundation
import Postgres
import Push
import Relay

/// `summit worker`: the long-running half of Summit. It holds the realtime relay
/// (one listening connection for every subscriber this process serves) and runs
/// the periodic sweeps, each as the service role.
///
/// Several workers may run against one database: every listener sees every
/// notification, and a sweep is an idempotent delete, so two sweeping at once
/// cost a little work and break nothing.
public actor Worker {
    public struct Options: Sendable {
        /// How often expired live positions are removed (spec §7.2: every 5 minutes).
        public var presenceSweepInterval: Duration
        /// How often the relay's figures go to the log.
        public var reportInterval: Duration
        /// How often pending meet requests past their expiry expire (spec §8.3: every 2 minutes).
        public var meetRequestSweepInterval: Duration

        /// Where push notifications go; nil: the outbox waits for a worker that has APNs configured.
        public var push: APNsConfiguration?
        /// How often the push outbox is delivered.
        public var pushInterval: Duration

        public init(presenceSweepInterval: Duration = .seconds(300), reportInterval: Duration = .seconds(60),
                    meetRequestSweepInterval: Duration = .seconds(120), push: APNsConfiguration? = nil,
                    pushInterval: Duration = .seconds(5)) {
            self.presenceSweepInterval = presenceSweepInterval
            self.reportInterval = reportInterval
            self.meetRequestSweepInterval = meetRequestSweepInterval
            self.push = push
            self.pushInterval = pushInterval
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

    /// Runs until the task is cancelled. A failed sweep is logged and tried again at
    /// the next interval; the relay reconnects by itself.
    public func run() async throws {
        let relay = try await Relay(configuration)
        self.relay = relay
        log("worker: relay listening; sweeping live presence every \(Self.describe(options.presenceSweepInterval))")
        let sweeper = PostgresPool(configuration, maxConnections: 1, applicationName: "summit-worker")
        let clock = ContinuousClock()
        var nextSweep = clock.now
        var nextMeetSweep = clock.now
        var nextReport = clock.now + options.reportInterval
        let push = try options.push.map(APNsClient.init)
        var nextPush = push == nil ? clock.now + .seconds(86_400 * 365) : clock.now
        while !Task.isCancelled {
            if let push, clock.now >= nextPush {
                await deliverPush(with: push, on: sweeper)
                nextPush = clock.now + options.pushInterval
            }
            if clock.now >= nextSweep {
                do {
                    let swept = try await sweeper.withConnection { try await Self.sweepPresence(on: $0) }
                    if swept > 0 { log("worker: swept \(swept) expired live position\(swept == 1 ? "" : "s")") }
                } catch {
                    log("worker: the presence sweep failed, trying again in \(Self.describe(options.presenceSweepInterval)): \(error)")
                }
                nextSweep = clock.now + options.presenceSweepInterval
            }
            if clock.now >= nextMeetSweep {
                do {
                    let expired = try await sweeper.withConnection { try await Self.sweepMeetRequests(on: $0) }
                    if expired > 0 { log("worker: expired \(expired) stale meet request\(expired == 1 ? "" : "s")") }
                } catch {
                    log("worker: the meet request sweep failed, trying again in \(Self.describe(options.meetRequestSweepInterval)): \(error)")
                }
                nextMeetSweep = clock.now + options.meetRequestSweepInterval
            }
            if clock.now >= nextReport {
                let figures = await relay.currentStatistics
                log("worker: relay \(figures.subscribers) subscribers, \(figures.notifications) notifications, "
                    + "\(figures.delivered) delivered, \(figures.droppedTotal) dropped, \(figures.gaps) gaps")
                nextReport = clock.now + options.reportInterval
            }
            try? await Task.sleep(until: min(nextSweep, nextMeetSweep, nextReport, nextPush))
        }
        await push?.close()
        await relay.close()
        await sweeper.close()
        self.relay = nil
        log("worker: stopped")
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds >= 60 && seconds.truncatingRemainder(dividingBy: 60) == 0
            ? "\(Int(seconds / 60)) min" : "\(seconds.formatted()) s"
    }
}
