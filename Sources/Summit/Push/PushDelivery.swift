import Foundation
import Postgres
import Push

/// Delivers the push outbox: claims due notifications as the service role, sends
/// each through APNs, and records what happened under its claim — delivered,
/// retried later with backoff (given up after `push.max_attempts()`), given up,
/// or, on 410, the dead device token removed — then forgets finished rows older
/// than a week.
///
/// Several deliverers may run at once (worker processes, `summit push deliver`):
/// a claim takes rows with `FOR UPDATE SKIP LOCKED` and leases them, so each
/// notification goes to one deliverer. The scheduler calls `deliverDue`.
public enum PushDelivery {
    /// What one `deliverDue` did.
    public struct Counts: Sendable, Codable, Equatable {
        public var claimed = 0
        public var delivered = 0
        /// Failed this time, due again after the backoff.
        public var retried = 0
        /// Given up: a permanent refusal, or the last attempt failed.
        public var failed = 0
        /// Device tokens APNs said are gone (410), removed.
        public var deadTokens = 0
        /// Claims that had changed hands (their lease ran out first) and were not reported.
        public var lost = 0

        public init() {}

        enum CodingKeys: String, CodingKey {
            case claimed, delivered, retried, failed, lost
            case deadTokens = "dead_tokens"
        }

        static func + (a: Counts, b: Counts) -> Counts {
            var sum = a
            sum.claimed += b.claimed
            sum.delivered += b.delivered
            sum.retried += b.retried
            sum.failed += b.failed
            sum.deadTokens += b.deadTokens
            sum.lost += b.lost
            return sum
        }
    }

    /// One claimed row of `push.claim_due`.
    struct Claim: Decodable, Sendable {
        var id: Int64
        var claimId: UUID
        var kind: String
        var token: String
        var environment: String
        var payload: String
        var collapseId: String
        var attempts: Int
        var createdAt: Date
    }

    /// How long a batch is leased: at least 5 minutes, and longer than the batch
    /// can take when every wave of `concurrency` requests waits out the APNs timeout
    /// twice (curl sends a request again on a new connection when the server closed
    /// the old one before reading it) — a lease that ran out mid-batch would let
    /// another deliverer claim, and send again, what this one has not reported yet.
    static func leaseSeconds(batch: Int, client: APNsClient) -> Int {
        let waves = (batch + client.concurrency - 1) / client.concurrency
        let worstRequest = 2 * Int(client.configuration.timeout.components.seconds + 1)
        return max(300, waves * worstRequest + 60)
    }
    /// How long APNs keeps trying to reach an offline device: a friend request
    /// or meet request a day old is no longer news.
    public static let notificationLifetime: TimeInterval = 24 * 3600

    /// Claims and delivers due notifications, `batch` at a time, until none are
    /// due (or `maximumBatches` were done); answers the totals.
    public static func deliverDue(on connection: PostgresConnection, client: APNsClient, worker: String,
                                  batch: Int = 100, maximumBatches: Int = 20) async throws -> Counts {
        var total = Counts()
        for _ in 0..<maximumBatches {
            let claims = try await connection.query("""
                select id, claim_id, kind, token, environment, payload::text as payload, collapse_id, attempts, created_at
                from push.claim_due(\(worker), \(batch)::integer, \(leaseSeconds(batch: batch, client: client))::integer)
                """, as: .serviceRole).decode(Claim.self)
            // Every claim at once: the client keeps `concurrency` of them in flight on its
            // connection and queues the rest, and each records its answer as it comes.
            var counts = try await withThrowingTaskGroup(of: Counts.self) { group in
                for claim in claims {
                    group.addTask { try await deliver(claim, on: connection, client: client) }
                }
                return try await group.reduce(Counts(), +)
            }
            counts.claimed = claims.count
            total = total + counts
            if claims.count < batch { break }
        }
        // Finished rows are kept a week for `summit push outbox` and inspection.
        _ = try await connection.query("select push.purge_finished()", as: .serviceRole).scalar(Int.self)
        return total
    }

    static func deliver(_ claim: Claim, on connection: PostgresConnection, client: APNsClient) async throws -> Counts {
        var counts = Counts()
        let notification = APNsNotification(
            deviceToken: claim.token, environment: APNsEnvironment(rawValue: claim.environment) ?? .production,
            payload: Data(claim.payload.utf8), pushType: .alert, priority: 10, collapseID: claim.collapseId,
            id: apnsID(for: claim.id), expiration: claim.createdAt.addingTimeInterval(notificationLifetime))
        let (outcome, response) = await client.send(notification)
        let status = response?.status
        let recorded: Bool
        switch outcome {
        case .delivered:
            recorded = try await connection.query(
                "select push.record_delivered(\(claim.id), \(claim.claimId), \(status ?? 200)::integer)", as: .serviceRole).scalar(Bool.self)
            if recorded { counts.delivered = 1 }
        case .deadToken:
            recorded = try await connection.query(
                "select push.record_dead_token(\(claim.id), \(claim.claimId))", as: .serviceRole).scalar(Bool.self)
            if recorded { counts.deadTokens = 1 }
        case .giveUp(let reason):
            recorded = try await connection.query(
                "select push.record_failed(\(claim.id), \(claim.claimId), \(status)::integer, \(reason))", as: .serviceRole).scalar(Bool.self)
            if recorded { counts.failed = 1 }
        case .retry(let reason, let after):
            let next = try await connection.query(
                "select push.record_retry(\(claim.id), \(claim.claimId), \(status)::integer, \(reason), \(after)::integer)", as: .serviceRole)
                .scalar(String?.self)
            recorded = next != nil
            if next == "pending" { counts.retried = 1 } else if next == "failed" { counts.failed = 1 }
        }
        if !recorded { counts.lost = 1 }
        return counts
    }

    /// The `apns-id` of an outbox row: the same on every attempt, so APNs's
    /// records of one notification line up.
    static func apnsID(for id: Int64) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", id))!
    }
}

extension PushDelivery.Counts {
    /// One line for logs and the command line.
    public var summary: String {
        "claimed \(claimed): \(delivered) delivered, \(retried) to retry, \(failed) given up, \(deadTokens) dead token"
            + (deadTokens == 1 ? "" : "s") + " removed" + (lost > 0 ? ", \(lost) lost to another deliverer" : "")
    }
}

extension PushDelivery {
    /// How a deliverer names itself in the outbox's `claimed_by`: host and process.
    public static func workerName() -> String {
        "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)"
    }
}

extension PushDelivery {
    /// The worker's `outbox-delivery` job: one `deliverDue` pass through `client`,
    /// summarised for the scheduler's log (empty when nothing was due).
    public static func scheduledJob(client: APNsClient) -> ScheduledJob.Body {
        { db in
            let counts = try await deliverDue(on: db, client: client, worker: workerName())
            return counts.claimed == 0 ? "" : "push " + counts.summary
        }
    }
}
