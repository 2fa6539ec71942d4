import Foundation
import Gateway
import Postgres
import SummitTestSupport

/// A clock tests can move forward, for token expiry.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    func advance(_ seconds: TimeInterval) { lock.withLock { offset += seconds } }
    func now() -> Date { lock.withLock { Date().addingTimeInterval(offset) } }
}

/// A gateway on a fresh database and a free port, with HTTP helpers that speak to it
/// over real sockets.
struct GatewayHarness: Sendable {
    let gateway: Gateway
    let database: PostgresConfiguration
    let configuration: GatewayConfiguration
    let clock: TestClock

    var port: Int { gateway.port }
    var anonKey: String { configuration.anonKey }
    var serviceKey: String { configuration.serviceRoleKey }

    /// A signed-in account.
    struct Account: Sendable {
        var id: UUID
        var email: String
        var accessToken: String
        var refreshToken: String
    }

    /// One request on a fresh connection; `token` goes in Authorization, the anon key in apikey
    /// (unless `apikey` says otherwise).
    func http(_ method: String, _ path: String, token: String? = nil, apikey: String? = nil,
              headers: [String: String] = [:], body: [UInt8] = []) async throws -> RawResponse {
        let client = try RawClient(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        let key = apikey ?? anonKey
        if !key.isEmpty { head += "apikey: \(key)\r\n" }
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        await client.send(Array((head + "\r\n").utf8) + body)
        return try await client.readResponse(toHead: method == "HEAD")
    }

    func http(_ method: String, _ path: String, token: String? = nil, apikey: String? = nil,
              headers: [String: String] = [:], json: Any) async throws -> RawResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        let data = try JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed])
        return try await http(method, path, token: token, apikey: apikey, headers: headers, body: Array(data))
    }

    /// Signs up `name` (who claims that username) and returns the session.
    func signUp(_ name: String, password: String = "correct horse") async throws -> Account {
        let response = try await http("POST", "/auth/v1/signup", json: [
            "email": "\(name)@example.test", "password": password, "data": ["username": name],
        ])
        guard response.status == 200, let session = response.json as? [String: Any],
              let user = session["user"] as? [String: Any], let id = (user["id"] as? String).flatMap(UUID.init(uuidString:)),
              let access = session["access_token"] as? String, let refresh = session["refresh_token"] as? String
        else { throw RawClient.Failure(description: "sign-up of \(name) answered \(response.status): \(response.text)") }
        return Account(id: id, email: "\(name)@example.test", accessToken: access, refreshToken: refresh)
    }

    /// Makes two accounts friends through the social RPCs over REST.
    func befriend(_ a: Account, _ b: Account) async throws {
        let first = try await rpc("social", "send_friend_request", as: a, ["p_user_id": b.id.uuidString])
        let second = try await rpc("social", "send_friend_request", as: b, ["p_user_id": a.id.uuidString])
        guard first.status == 200, second.status == 200, second.text.contains("friends") else {
            throw RawClient.Failure(description: "befriending answered \(first.status) \(first.text) / \(second.status) \(second.text)")
        }
    }

    func rpc(_ schema: String, _ name: String, as account: Account?, _ arguments: [String: Any] = [:]) async throws -> RawResponse {
        try await http("POST", "/rest/v1/rpc/\(name)", token: account?.accessToken,
                       headers: ["Content-Profile": schema], json: arguments)
    }

    /// Runs SQL on the test database as its owner (for checks behind the API's back).
    func sql<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await PostgresConnection.withConnection(database, body)
    }
}

/// A gateway on a fresh database for the length of `body`.
func withGateway<T>(
    configure: (inout GatewayConfiguration) -> Void = { _ in },
    _ body: (GatewayHarness) async throws -> T
) async throws -> T {
    try await withGateways(1, configure: configure) { try await body($0[0]) }
}

/// `count` gateways (as separate processes would be: each its own relay, listener and
/// pool) on one fresh database, sharing the secret and the clock.
func withGateways<T>(
    _ count: Int,
    configure: (inout GatewayConfiguration) -> Void = { _ in },
    _ body: ([GatewayHarness]) async throws -> T
) async throws -> T {
    try await withFreshDatabase { database in
        var configuration = try GatewayConfiguration.forTests()
        configure(&configuration)
        let clock = TestClock()
        var harnesses: [GatewayHarness] = []
        for _ in 0..<count {
            harnesses.append(try await GatewayHarness.start(on: database, configuration: configuration, clock: clock))
        }
        do {
            let value = try await body(harnesses)
            for harness in harnesses { await harness.gateway.shutdown() }
            return value
        } catch {
            for harness in harnesses { await harness.gateway.shutdown() }
            throw error
        }
    }
}

/// A gateway on `database` (lag-tolerant reads on `readDatabase`) for the length of `body`.
func withGateway<T>(
    on database: PostgresConfiguration, readDatabase: PostgresConfiguration? = nil,
    configuration: GatewayConfiguration, clock: TestClock, _ body: (GatewayHarness) async throws -> T
) async throws -> T {
    let harness = try await GatewayHarness.start(on: database, readDatabase: readDatabase, configuration: configuration, clock: clock)
    do {
        let value = try await body(harness)
        await harness.gateway.shutdown()
        return value
    } catch {
        await harness.gateway.shutdown()
        throw error
    }
}

extension GatewayHarness {
    /// A gateway started on a free port.
    static func start(on database: PostgresConfiguration, readDatabase: PostgresConfiguration? = nil,
                      configuration: GatewayConfiguration, clock: TestClock) async throws -> GatewayHarness {
        let gateway = try await Gateway(database: database, readDatabase: readDatabase, configuration: configuration, clock: { clock.now() })
        try gateway.start()
        return GatewayHarness(gateway: gateway, database: database, configuration: configuration, clock: clock)
    }
}

extension GatewayConfiguration {
    /// New keys, a free port of its own, four connections.
    static func forTests() throws -> GatewayConfiguration {
        var configuration = try GatewayConfiguration.from(GatewayConfiguration.parseEnvironmentFile(GatewayConfiguration.generateKeys()))
        configuration.server.port = 0
        configuration.server.reusePort = false
        configuration.databaseConnections = 4
        return configuration
    }
}
