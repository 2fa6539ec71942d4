import Foundation
import Postgres

/// What every service of the gateway shares: configuration, credentials, the
/// request connections, and the clock tokens are checked on.
final class GatewayContext: Sendable {
    let configuration: GatewayConfiguration
    let credentials: Credentials
    let database: PostgresConfiguration
    let pool: PostgresPool
    let clock: @Sendable () -> Date

    init(database: PostgresConfiguration, configuration: GatewayConfiguration,
         clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.database = database
        credentials = try Credentials(configuration)
        pool = PostgresPool(database, maxConnections: configuration.databaseConnections, applicationName: "summit-gateway")
        self.clock = clock
    }

    /// One statement as `caller` on a pooled connection.
    func query(_ query: PostgresQuery, as caller: RequestCaller) async throws -> PostgresRows {
        try await pool.withConnection { try await $0.query(query, as: caller) }
    }

    /// One statement as the service role (the gateway's own bookkeeping).
    func queryAsService(_ query: PostgresQuery) async throws -> PostgresRows {
        try await pool.withConnection { try await $0.query(query, as: .serviceRole) }
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
