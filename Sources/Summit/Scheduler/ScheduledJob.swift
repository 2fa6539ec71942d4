import Foundation
import Postgres

/// A periodic job of the worker: a name (its lease key), how often it runs
/// across all workers, and what it does. The body gets the scheduler's
/// connection and answers a one-line summary for the log.
public struct ScheduledJob: Sendable {
    public typealias Body = @Sendable (PostgresConnection) async throws -> String

    /// Lowercase words joined by hyphens: `meet-request-expiry`.
    public var name: String
    public var every: Duration
    /// Each wait is lengthened by a random share of `every`, up to this
    /// fraction, so workers started together drift apart instead of all
    /// contending for the same lease at the same instant.
    public var jitter: Double
    public var body: Body

    public init(name: String, every: Duration, jitter: Double = 0.1, body: @escaping Body) {
        self.name = name
        self.every = every
        self.jitter = jitter
        self.body = body
    }

    var seconds: Double { Double(every.components.seconds) + Double(every.components.attoseconds) / 1e18 }

    /// The wait before the next attempt: the interval plus its jitter.
    func nextWait<R: RandomNumberGenerator>(using random: inout R) -> Duration {
        let extra = jitter > 0 ? Double.random(in: 0...(seconds * jitter), using: &random) : 0
        return .milliseconds(Int64((seconds + extra) * 1000))
    }
}
