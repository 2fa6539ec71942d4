import Foundation
import Postgres
import Synchronization

/// Where a lag-tolerant read goes when `SUMMIT_READ_URL` names a read pool (standbys,
/// or HAProxy's replica port): reads that show what others wrote and never read back
/// what their caller just wrote — the Atlas, published resort graphs and the resort
/// catalog, other people's profiles.
///
/// Two rules keep read-your-writes whole. Only the reads named here go to the pool,
/// and a caller who wrote through this gateway reads from the primary for
/// `stickySeconds` after (a standby applies what the primary committed a moment later).
/// A standby that cannot answer — down, in recovery conflict, or asked to write — hands
/// the read to the primary, so the pool never costs an answer.
final class ReadRouting: Sendable {
    /// Relations a GET may read from the pool, schema-qualified.
    static let relations: Set<String> = [
        "powdermeet.profiles", "mountain.resorts", "mountain.current_resort_canonical_manifest", "powdermeet.current_resort_canonical_manifest",
        "powdermeet.skis_catalog", "grids.prompts", "airstrive.prompts",
    ]

    /// Functions (stable or immutable ones only) a call may run on the pool, by name in any
    /// exposed schema: the faces' wrappers carry the core's names.
    static let functions: Set<String> = [
        "atlas_search", "atlas_this_season", "atlas_rows", "atlas_preview",
        "get_resort_graph", "search_resorts", "resolve_resort_id",
        "profile_view", "search_usernames",
    ]

    let pool: PostgresPool
    let stickySeconds: TimeInterval
    private let lastWrites = Mutex<[UUID: Date]>([:])
    /// Until when the pool is passed over after it failed to connect, so a standby that is
    /// down costs one connect time-out, not one per read.
    private let restingUntil = Mutex<Date>(.distantPast)

    init(_ database: PostgresConfiguration, maxConnections: Int, stickySeconds: TimeInterval = 5) {
        // Renewed every minute: after a failover the pool finds the standbys again (a
        // multi-host URL on prefer-standby falls back to the primary while none answers).
        pool = PostgresPool(database, maxConnections: maxConnections, applicationName: "summit-gateway-read", maxLifetime: .seconds(60))
        self.stickySeconds = stickySeconds
    }

    /// Whether a read of `schema.name` by `caller` may be answered by the pool now.
    func serves(relation schema: String, _ name: String, caller: RequestCaller, now: Date) -> Bool {
        Self.relations.contains("\(schema).\(name)") && admits(caller, now: now)
    }

    func serves(function name: String, caller: RequestCaller, now: Date) -> Bool {
        Self.functions.contains(name) && admits(caller, now: now)
    }

    /// The pool is up and the caller did not write lately.
    private func admits(_ caller: RequestCaller, now: Date) -> Bool {
        restingUntil.withLock { $0 <= now } && !wroteLately(caller, now: now)
    }

    /// The pool failed to answer `error`: a connection failure rests it for a few seconds.
    func failed(_ error: Error, now: Date) {
        guard (error as? PostgresError)?.isConnectionFailure == true else { return }
        restingUntil.withLock { $0 = now.addingTimeInterval(5) }
    }

    /// A user's write (or new session): their reads stay on the primary for a while.
    func noteWrite(by user: UUID?, now: Date) {
        guard let user else { return }
        lastWrites.withLock { writes in
            writes[user] = now
            // Forget callers whose window has passed, so the table stays as small as the traffic.
            if writes.count > 10_000 { writes = writes.filter { now.timeIntervalSince($0.value) < stickySeconds } }
        }
    }

    private func wroteLately(_ caller: RequestCaller, now: Date) -> Bool {
        guard let user = caller.userID else { return false }
        return lastWrites.withLock { writes in writes[user].map { now.timeIntervalSince($0) < stickySeconds } ?? false }
    }

    /// Why a read the pool failed is the primary's to answer instead.
    static func handsToPrimary(_ error: Error) -> Bool {
        guard let error = error as? PostgresError else { return false }
        // 40001: canceled by a conflict with recovery; 25006: the statement wrote.
        return error.isServerUnavailable || ["40001", "25006"].contains(error.code.rawValue)
    }
}
