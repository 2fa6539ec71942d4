import Foundation
import Summit
import Gateway
import Postgres
import PostgresServer
import SummitDatabase

/// `summit bench gateway`: what the network front costs and carries.
///
/// (a) One RPC — `social.get_social_snapshot()` as a signed-in user — called
/// directly over libpq (the same caller, one round trip, prepared) by as many
/// tasks as wrk has connections, against the same RPC through the gateway's
/// `POST /rest/v1/rpc/…`, driven by wrk; both with the same number of PostgreSQL
/// connections; then, the same way, `my_friends` with select, a filter, order, a
/// limit and an exact count, and a table read embedding two profiles. (b) WebSocket fan-out: CLIENTS realtime clients (a Python swarm
/// of `websockets`, spread over processes) follow one skier's friends channel; the
/// skier publishes positions and each client records capture-to-arrival latency.
public struct GatewayBenchmark: Sendable {
    public struct Settings: Sendable {
        public var seconds: Double = 10
        /// wrk connections, and the direct path's concurrent callers.
        public var httpConnections = 32
        /// PostgreSQL connections, the same on both paths.
        public var databaseConnections = 8
        public var clients = 5000
        public var rounds = 20
        public var interval: Double = 1
        public var swarmProcesses = 2
        public var rest = true
        public var realtime = true

        public init() {}
    }

    public struct Result: Sendable, Encodable {
        public var directPerSecond: Double?
        public var gatewayPerSecond: Double?
        public var gatewayLatencyP50: String?
        public var gatewayLatencyP99: String?
        /// Gateway throughput over direct; the target is at least 0.5.
        public var ratio: Double?
        public var clients: Int?
        public var rounds: Int?
        public var delivered: Int?
        public var expected: Int?
        public var joinSeconds: Double?
        public var fanOutP50Milliseconds: Double?
        public var fanOutP90Milliseconds: Double?
        public var fanOutP99Milliseconds: Double?
        public var fanOutMaxMilliseconds: Double?
        /// The RPC with modifiers and the embedded select, beside the plain RPC above.
        public var queries: [Measurement] = []
    }

    public struct Measurement: Sendable, Encodable {
        public var name: String
        public var path: String
        public var directPerSecond: Double
        public var gatewayPerSecond: Double
        public var gatewayLatencyP50: String?
        public var gatewayLatencyP99: String?
        public var ratio: Double
    }

    let settings: Settings

    public init(_ settings: Settings) {
        self.settings = settings
    }

    public func run(on database: PostgresConfiguration, workspace: Workspace,
                    progress: @escaping @Sendable (String) -> Void) async throws -> Result {
        var result = Result()
        let values = GatewayConfiguration.parseEnvironmentFile(GatewayConfiguration.generateKeys())
        var configuration = try GatewayConfiguration.from(values)
        configuration.server.port = 0
        configuration.server.reusePort = false
        configuration.databaseConnections = settings.databaseConnections
        let people = settings.realtime ? settings.clients : 1
        progress("adding a skier and \(people) friends…")
        let skier = try await PostgresConnection.withConnection(database) { try await addPeople(people, on: $0) }
        // The RPC's caller: one of the friends, whose snapshot (one friend) is the size a phone's usually is,
        // so the comparison weighs the gateway's own work rather than a huge answer.
        let caller = try await PostgresConnection.withConnection(database) {
            try await $0.query("select md5('gateway-bench:1')::uuid").scalar(UUID.self)
        }
        let gateway = try await Gateway(database: database, configuration: configuration)
        try gateway.start()
        do {
            if settings.rest {
                try await measureRPC(gateway, configuration, database: database, caller: caller, into: &result, progress: progress)
            }
            if settings.realtime {
                try await measureFanOut(gateway, configuration, database: database, workspace: workspace, skier: skier,
                                        into: &result, progress: progress)
            }
        } catch {
            await gateway.shutdown()
            throw error
        }
        await gateway.shutdown()
        return result
    }

    // MARK: - People

    /// The skier and `count` friends of theirs, each with a username.
    private func addPeople(_ count: Int, on connection: PostgresConnection) async throws -> UUID {
        try await connection.query("""
            insert into auth.users (id, email, raw_user_meta_data)
            select md5('gateway-bench:' || i)::uuid, 'gbench' || i || '@bench.test',
                   jsonb_build_object('username', 'gbench' || lpad(i::text, 6, '0'))
            from generate_series(0, \(count)) i
            """)
        try await connection.query("""
            insert into social.friendships (user_a, user_b)
            select least(s, f), greatest(s, f)
            from (select md5('gateway-bench:0')::uuid as s, md5('gateway-bench:' || i)::uuid as f
                  from generate_series(1, \(count)) i) pairs
            """)
        return try await connection.query("select md5('gateway-bench:0')::uuid").scalar(UUID.self)
    }

    /// An access token for `user`, as the auth service would issue it.
    static func token(for user: UUID, secret: [UInt8], lifetime: Int = 7200) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return JWT.sign(claims: ["aud": "authenticated", "role": "authenticated", "sub": user.uuidString.lowercased(),
                                 "iat": now, "exp": now + lifetime, "iss": "summit"], secret: secret)
    }

    // MARK: - (a) RPC

    /// What (a) measures: the plain RPC (the ratio's target), then the same RPC machinery with
    /// modifiers and a table read with an embedded resource, each against its SQL over libpq.
    struct Workload: Sendable {
        var name: String
        var method: String
        var path: String
        var headers: [String: String]
        var body: String?
        /// The same work straight over libpq, as the same user.
        var direct: String
    }

    static let workloads = [
        Workload(name: "rpc", method: "POST", path: "/rest/v1/rpc/get_social_snapshot", headers: ["Content-Profile": "social"],
                 body: "{}", direct: "select social.get_social_snapshot()::text"),
        Workload(name: "rpc with modifiers", method: "POST",
                 path: "/rest/v1/rpc/my_friends?select=username,since&username=like.gbench*&order=username.desc&limit=5",
                 headers: ["Content-Profile": "social", "Prefer": "count=exact"], body: "{}",
                 direct: """
                     with f as (select * from social.my_friends()) select (select coalesce(json_agg(p), '[]')::text from \
                     (select username, since from f where username like 'gbench%' order by username desc limit 5) p), (select count(*) from f where username like 'gbench%')
                     """),
        Workload(name: "embedded select", method: "GET",
                 path: "/rest/v1/friendships?select=created_at,a:profiles!user_a(username),b:profiles!user_b(username)&limit=5",
                 headers: ["Accept-Profile": "social"], body: nil,
                 direct: """
                     select coalesce(json_agg(r), '[]')::text from (select f.created_at, (select row_to_json(x) from (select username from social.profiles p \
                     where p.id = f.user_a) x) as a, (select row_to_json(x) from (select username from social.profiles p where p.id = f.user_b) x) as b \
                     from social.friendships f limit 5) r
                     """),
    ]

    private func measureRPC(_ gateway: Gateway, _ configuration: GatewayConfiguration, database: PostgresConfiguration,
                            caller skier: UUID, into result: inout Result, progress: @escaping @Sendable (String) -> Void) async throws {
        guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLIError("wrk is not installed", fix: "install it with apt-get install wrk (scripts/packages --test does)")
        }
        let token = Self.token(for: skier, secret: configuration.jwtSecret)
        for workload in Self.workloads {
            progress("direct: \(workload.name) over libpq, \(settings.httpConnections) callers on \(settings.databaseConnections) connections, \(settings.seconds) s…")
            let direct = try await self.direct(database, skier: skier, sql: workload.direct)
            var script = "wrk.method = \"\(workload.method)\"\n"
            if let body = workload.body { script += "wrk.body = \"\(body)\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\n" }
            for (name, value) in workload.headers.sorted(by: { $0.key < $1.key }) { script += "wrk.headers[\"\(name)\"] = \"\(value)\"\n" }
            script += "wrk.headers[\"apikey\"] = \"\(configuration.anonKey)\"\nwrk.headers[\"Authorization\"] = \"Bearer \(token)\"\n"
            let scriptPath = NSTemporaryDirectory() + "summit-gateway-bench-\(UUID().uuidString.prefix(8)).lua"
            try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: scriptPath) }
            let url = "http://127.0.0.1:\(gateway.port)" + workload.path
            // A short warm-up (connections, prepared statements), then the measured run.
            _ = try await Subprocess(executable: wrk, arguments: ["-t2", "-c\(settings.httpConnections)", "-d1s", "-s", scriptPath, url]).run()
            progress("gateway: wrk on \(workload.method) \(workload.path), \(settings.httpConnections) connections, \(settings.seconds) s…")
            let run = try await Subprocess(executable: wrk, arguments: [
                "-t2", "-c\(settings.httpConnections)", "-d\(Int(settings.seconds.rounded()))s", "--latency", "-s", scriptPath, url]).run()
            guard run.succeeded else { throw CLIError("wrk failed: \(run.stderr.suffix(400))", fix: "run wrk by hand against the printed URL") }
            if let bad = Self.field(run.stdout, after: "Non-2xx or 3xx responses:") {
                throw CLIError("the gateway answered \(bad) requests to \(workload.path) with an error status during the run",
                               fix: "check `summit serve` by hand")
            }
            guard let rate = Self.field(run.stdout, after: "Requests/sec:").flatMap(Double.init) else {
                throw CLIError("wrk printed no Requests/sec: \(run.stdout.suffix(400))")
            }
            let measured = Measurement(name: workload.name, path: workload.path, directPerSecond: direct, gatewayPerSecond: rate,
                                       gatewayLatencyP50: Self.field(run.stdout, after: "50%"),
                                       gatewayLatencyP99: Self.field(run.stdout, after: "99%"), ratio: rate / direct)
            if workload.name == "rpc" {
                result.directPerSecond = direct
                result.gatewayPerSecond = rate
                result.gatewayLatencyP50 = measured.gatewayLatencyP50
                result.gatewayLatencyP99 = measured.gatewayLatencyP99
                result.ratio = measured.ratio
            } else {
                result.queries.append(measured)
            }
        }
    }

    /// Calls per second of `sql` straight over libpq as the same user.
    private func direct(_ database: PostgresConfiguration, skier: UUID, sql: String) async throws -> Double {
        let pool = PostgresPool(database, maxConnections: settings.databaseConnections, applicationName: "summit bench direct")
        let counter = CallCounter()
        let seconds = settings.seconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<settings.httpConnections {
                group.addTask {
                    let start = ContinuousClock.now
                    while true {
                        let elapsed = ContinuousClock.now - start
                        if elapsed > .milliseconds(Int64((seconds + 1) * 1000)) { return }
                        _ = try await pool.withConnection { connection in
                            try await connection.query(PostgresQuery(unsafeSQL: sql), as: .user(skier))
                        }
                        // The first second warms up (connections, prepared statements) uncounted.
                        if elapsed > .seconds(1) { counter.add() }
                    }
                }
            }
            try await group.waitForAll()
        }
        await pool.close()
        return Double(counter.value) / seconds
    }

    /// The text after `label` on its line in wrk's report.
    static func field(_ report: String, after label: String) -> String? {
        for line in report.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(label) {
                return trimmed.dropFirst(label.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
            }
        }
        return nil
    }

    // MARK: - (b) fan-out

    private func measureFanOut(_ gateway: Gateway, _ configuration: GatewayConfiguration, database: PostgresConfiguration,
                               workspace: Workspace, skier: UUID,
                               into result: inout Result, progress: @escaping @Sendable (String) -> Void) async throws {
        let python = try await GatewayPython.python(workspace: workspace.root, note: progress)
        let friends = try await PostgresConnection.withConnection(database) { connection in
            try await connection.query("""
                select md5('gateway-bench:' || i)::uuid from generate_series(1, \(settings.clients)) i order by i
                """).decode(UUID.self)
        }
        let config: [String: Any] = [
            "url": "ws://127.0.0.1:\(gateway.port)/realtime/v1/websocket?apikey=\(configuration.anonKey)&vsn=1.0.0",
            "topic": "realtime:pos:resort:vail",
            "publisher": Self.token(for: skier, secret: configuration.jwtSecret),
            "clients": friends.map { Self.token(for: $0, secret: configuration.jwtSecret) },
            "rounds": settings.rounds, "interval": settings.interval, "workers": settings.swarmProcesses,
        ]
        let configPath = NSTemporaryDirectory() + "summit-gateway-swarm-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
        defer { try? FileManager.default.removeItem(atPath: configPath) }
        progress("fan-out: \(settings.clients) WebSocket clients follow one skier; \(settings.rounds) positions, one every \(settings.interval) s…")
        let swarm = workspace.root.appendingPathComponent("scripts/gateway-swarm.py").path
        let run = try await Subprocess(executable: python, arguments: [swarm, "run", configPath]).run()
        guard run.succeeded, let line = run.stdout.split(separator: "\n").last,
              let answer = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw CLIError("the WebSocket swarm failed: \(run.stderr.suffix(800)) \(run.stdout.suffix(400))",
                           fix: "check that this process may open \(settings.clients * 2 + 100) files (ulimit -n)")
        }
        result.clients = answer["clients"] as? Int
        result.rounds = answer["rounds"] as? Int
        result.delivered = answer["delivered"] as? Int
        result.expected = answer["expected"] as? Int
        result.joinSeconds = answer["join_seconds"] as? Double
        result.fanOutP50Milliseconds = answer["p50_ms"] as? Double
        result.fanOutP90Milliseconds = answer["p90_ms"] as? Double
        result.fanOutP99Milliseconds = answer["p99_ms"] as? Double
        result.fanOutMaxMilliseconds = answer["max_ms"] as? Double
    }
}

/// Counts completed calls across tasks.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
