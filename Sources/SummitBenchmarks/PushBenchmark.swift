import Foundation
import Push
import PushStandIn
import Summit

/// What multiplexing buys on one HTTP/2 connection to a far APNs.
///
/// The APNs stand-in answers every request `delayMilliseconds` after it came, as
/// a server a round trip away does. Two runs of `seconds` each, each with a client
/// of its own and so one connection of its own: one request at a time (what the
/// hand-written client before libcurl did on each connection), then `concurrency`
/// requests in flight as streams. Each run's connection is opened by one untimed
/// notification first. Every notification must be delivered; the stand-in's log
/// says how many connections a run used and how many streams it had open at once.
public struct PushBenchmark: Sendable {
    public struct Settings: Sendable {
        public var seconds: Double
        public var delayMilliseconds: Double
        public var concurrency: Int
        public var tls: Bool

        public init(seconds: Double = 5, delayMilliseconds: Double = 50,
                    concurrency: Int = APNsConfiguration.defaultConcurrency, tls: Bool = false) {
            self.seconds = seconds
            self.delayMilliseconds = delayMilliseconds
            self.concurrency = concurrency
            self.tls = tls
        }
    }

    /// One run on one connection.
    public struct Figure: Sendable, Encodable {
        public var concurrency: Int
        public var delivered: Int
        /// Notifications that were not delivered: must be 0.
        public var failed: Int
        /// What became of the first one that was not.
        public var firstFailure: String?
        public var seconds: Double
        public var notificationsPerSecond: Double
        /// Connections the stand-in answered the run's notifications on.
        public var connections: Int
        /// The most requests the stand-in had open at once on the run's connection.
        public var mostInFlight: Int

        enum CodingKeys: String, CodingKey {
            case concurrency, delivered, failed, seconds, connections, firstFailure = "first_failure"
            case notificationsPerSecond = "notifications_per_second", mostInFlight = "most_in_flight"
        }
    }

    public struct Result: Sendable, Encodable {
        public var transport: String
        public var delayMilliseconds: Double
        public var oneAtATime: Figure
        public var multiplexed: Figure
        public var ratio: Double { multiplexed.notificationsPerSecond / oneAtATime.notificationsPerSecond }

        enum CodingKeys: String, CodingKey {
            case transport, delayMilliseconds = "delay_ms", oneAtATime = "one_at_a_time", multiplexed, ratio
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transport, forKey: .transport)
            try container.encode(delayMilliseconds, forKey: .delayMilliseconds)
            try container.encode(oneAtATime, forKey: .oneAtATime)
            try container.encode(multiplexed, forKey: .multiplexed)
            try container.encode(ratio, forKey: .ratio)
        }
    }

    public var settings: Settings

    public init(_ settings: Settings) {
        self.settings = settings
    }

    public func run(workspace root: URL, folder: URL, progress: @escaping @Sendable (String) -> Void) async throws -> Result {
        progress("starting the APNs stand-in (\(settings.tls ? "TLS" : "h2c"), answers \(settings.delayMilliseconds.formatted()) ms late)…")
        let standIn = try await APNsStandIn(in: folder, workspace: root, tls: settings.tls,
                                            delayMilliseconds: settings.delayMilliseconds, note: progress)
        defer { standIn.stop() }
        progress("one at a time for \(settings.seconds.formatted()) s…")
        let oneAtATime = try await measure(concurrency: 1, standIn: standIn)
        progress("\(settings.concurrency) in flight for \(settings.seconds.formatted()) s…")
        let multiplexed = try await measure(concurrency: settings.concurrency, standIn: standIn)
        return Result(transport: settings.tls ? "TLS with ALPN h2" : "h2c", delayMilliseconds: settings.delayMilliseconds,
                      oneAtATime: oneAtATime, multiplexed: multiplexed)
    }

    /// `concurrency` senders, each sending its next notification when the last is answered, until the time is up.
    func measure(concurrency: Int, standIn: APNsStandIn) async throws -> Figure {
        var configuration = standIn.configuration()
        configuration.concurrency = concurrency
        let client = try APNsClient(configuration)
        let warmUp = await client.send(Self.notification()).outcome
        guard warmUp == .delivered else {
            await client.close()
            throw CLIError("the APNs stand-in did not take the first notification: \(warmUp)",
                           fix: "see the stand-in's log in \(standIn.logPath)")
        }
        let answeredBefore = standIn.records().count
        let seconds = settings.seconds
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int64(seconds * 1000))
        let (delivered, failures) = await withTaskGroup(of: (Int, [APNsOutcome]).self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var delivered = 0
                    var failures: [APNsOutcome] = []
                    while ContinuousClock.now < deadline {
                        let outcome = await client.send(Self.notification()).outcome
                        if outcome == .delivered { delivered += 1 } else { failures.append(outcome) }
                    }
                    return (delivered, failures)
                }
            }
            return await group.reduce((0, [])) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        let elapsed = ContinuousClock.now - started
        await client.close()
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let records = standIn.records().dropFirst(answeredBefore)
        return Figure(concurrency: concurrency, delivered: delivered, failed: failures.count,
                      firstFailure: failures.first.map { String(describing: $0) }, seconds: elapsedSeconds,
                      notificationsPerSecond: Double(delivered) / elapsedSeconds,
                      connections: Set(records.compactMap { $0["connection"] as? Int }).count,
                      mostInFlight: records.compactMap { $0["in_flight"] as? Int }.max() ?? 0)
    }

    static func notification() -> APNsNotification {
        // "f…": none of the prefixes the stand-in answers with a failure ("dead", "5000", "4290", …) begins so.
        let token = "f" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined().dropFirst()
        return APNsNotification(deviceToken: token, environment: .production,
                                payload: Data(#"{"aps":{"alert":{"title":"Summit","body":"bench"}}}"#.utf8), id: UUID())
    }
}
