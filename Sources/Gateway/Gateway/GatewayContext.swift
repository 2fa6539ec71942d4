import Foundation
import Postgres

/// What every service of the gateway shares: configuration, credentials, the
/// request connections, and the clock tokens are checked on.
final class GatewayContext: Sendable {
    let configuration: GatewayConfiguration
    let credentials: Credentials
    let database: PostgresConfiguration
    let pool: PostgresPool
    /// The read pool of `SUMMIT_READ_URL`, for lag-tolerant reads; nil: every read on `pool`.
    let reads: ReadRouting?
    let clock: @Sendable () -> Date

    init(database: PostgresConfiguration, readDatabase: PostgresConfiguration? = nil, configuration: GatewayConfiguration,
         clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.database = database
        credentials = try Credentials(configuration)
        pool = PostgresPool(database, maxConnections: configuration.databaseConnections, applicationName: "summit-gateway")
        reads = readDatabase.map { ReadRouting($0, maxConnections: configuration.databaseConnections) }
        self.clock = clock
    }

    /// Runs `body` on the read pool when `lagTolerant` and there is one, else on the
    /// primary. A read the pool cannot answer (a standby down or in conflict) runs again
    /// on the primary: reads are safe to repeat.
    func withConnection<T: Sendable>(lagTolerant: Bool, _ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        guard lagTolerant, let reads else { return try await pool.withConnection(body) }
        do {
            return try await reads.pool.withConnection(body)
        } catch where ReadRouting.handsToPrimary(error) {
            reads.failed(error, now: clock())
            return try await pool.withConnection(body)
        }
    }

    /// One statement as `caller` on a pooled connection.
    func query(_ query: PostgresQuery, as caller: RequestCaller) async throws -> PostgresRows {
        try await pool.withConnection { try await $0.query(query, as: caller) }
    }

    /// One statement as the service role (the gateway's own bookkeeping); `lagTolerant`
    /// for reads of published data a standby may answer.
    func queryAsService(_ query: PostgresQuery, lagTolerant: Bool = false) async throws -> PostgresRows {
        try await withConnection(lagTolerant: lagTolerant) { try await $0.query(query, as: .serviceRole) }
    }

    /// Notes a request that may write as its user's (or a session just begun): their
    /// reads stay on the primary for a while.
    func noteWrite(by user: UUID?) {
        reads?.noteWrite(by: user, now: clock())
    }
}

extension GatewayContext {
    /// This gateway as the client reached it, for the URLs it hands out (links in mail,
    /// graph blobs): `SUMMIT_API_URL`, else the request's Host (and X-Forwarded-Proto
    /// behind a proxy on this machine).
    func publicURL(_ request: HTTPRequest) -> String {
        if let configured = configuration.auth.apiURL { return configured }
        let host = request.headers["host"] ?? "localhost"
        let proxied = AuthRateLimiter.isLoopback(AuthRateLimiter.peerAddress(request)) ? request.headers["x-forwarded-proto"] : nil
        return "\(proxied == "https" ? "https" : "http")://\(host)"
    }
}
