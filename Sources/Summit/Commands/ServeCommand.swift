import Digest
import Foundation
import Gateway
import Postgres

/// `summit serve`: the gateway — auth, REST, realtime and storage over HTTP and
/// WebSocket — until interrupted.
enum ServeCommand {
    static let command = Command(
        name: "serve",
        summary: "Serve the hosted platform's protocols (auth, REST, realtime, storage) over HTTP and WebSocket, and the moderation site at /admin.",
        discussion: """
            The JWT secret and the anon and service role keys come from --config FILE (KEY=value lines) or the \
            environment (SUMMIT_JWT_SECRET, SUMMIT_ANON_KEY, SUMMIT_SERVICE_ROLE_KEY; the environment wins); make \
            them once with `summit serve keys --out FILE`. Optional: SUMMIT_ACCESS_TOKEN_LIFETIME (seconds, default \
            3600), SUMMIT_REST_SCHEMAS (default public,social,grids,meet,mountain,activity) and SUMMIT_READ_URL (standbys \
            that answer lag-tolerant reads: the Atlas, resort graphs, others' profiles). Plain HTTP only: put \
            a TLS proxy in front (see docs/gateway.md). Several processes may share one port \
            (SO_REUSEPORT) or run on several behind a load balancer; they share presence and broadcasts through \
            PostgreSQL. Interrupt (SIGINT or SIGTERM) drains requests and closes WebSockets with 1001. The \
            moderation site at /admin signs in the people `summit admin grant` names (docs/admin-site.md).
            """,
        options: [
            .value("--config", "FILE", "KEY=value lines with the secret and keys (default: $SUMMIT_GATEWAY_CONFIG)"),
            .value("--host", "ADDRESS", "address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"),
            .value("--port", "PORT", "port to listen on (default 8000; 0 picks a free one and prints it)"),
            .value("--connections", "N", "PostgreSQL connections for requests (default 8)"),
        ],
        subcommands: [keys, signingKey],
        run: { invocation in
            let path = invocation.commandPath
            let workspace = try invocation.workspace()
            var configuration = try loadConfiguration(invocation, environment: workspace.environment)
            if let host = invocation.value("--host") { configuration.server.host = host }
            if let text = invocation.value("--port") {
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw CLIError.usage("--port takes a number from 0 to 65535, not \"\(text)\"", command: path)
                }
                configuration.server.port = port
            }
            if let text = invocation.value("--connections") {
                guard let count = Int(text), (1...200).contains(count) else {
                    throw CLIError.usage("--connections takes a number from 1 to 200, not \"\(text)\"", command: path)
                }
                configuration.databaseConnections = count
            }
            let database = try await AppSession.with(workspace) { $0.connection.configuration }
            let console = invocation.console
            let readDatabase = try readPool(workspace.environment)
            let gateway = try await Gateway(database: database, readDatabase: readDatabase, configuration: configuration,
                                            functions: ResortFunctions.all(database: database),
                                            resorts: AdminResortPages.source(database: database))
            do {
                try gateway.start()
            } catch {
                throw CLIError("cannot listen on \(configuration.server.host):\(configuration.server.port): \(error)",
                               fix: "choose another --port, or stop what is using it")
            }
            // The address on standard output (tests and scripts read it); the rest is a note.
            console.out("listening on http://\(configuration.server.host):\(gateway.port)")
            console.note("summit serve: /auth/v1 /rest/v1 /realtime/v1/websocket /storage/v1 /functions/v1 /admin on \(database.target); interrupt to stop")
            if let readDatabase { console.note("summit serve: lag-tolerant reads on \(readDatabase.target) (SUMMIT_READ_URL)") }
            if configuration.auth.smtp == nil {
                console.note("summit serve: no mail server is set (\(AuthSettings.Key.smtpURL)): codes and links that auth would mail are written to this log")
            }
            let (stopped, stop) = AsyncStream<Void>.makeStream()
            let signals = InterruptSignals { stop.yield() }
            defer { signals.cancel() }
            for await _ in stopped { break }
            console.note("summit serve: draining…")
            await gateway.shutdown()
            let statistics = await gateway.server.statistics
            console.note("summit serve: stopped after \(statistics.requests) requests and \(statistics.upgrades) WebSockets")
            return 0
        })

    static let keys = Command(
        name: "keys",
        summary: "Make a new JWT secret and the anon and service role keys signed with it; or an app's own keys.",
        discussion: """
            Writes KEY=value lines for --config (or prints them). The file is created with mode 0600 and never \
            overwritten. Keep it out of version control: the service role key bypasses row level security. A new \
            secret signs out everyone and invalidates the old keys. With --app APP --config FILE, appends APP's key \
            pair, signed with FILE's secret: requests made with them address APP's face (its own table and function \
            names) by default; the project's keys keep addressing the first exposed schema.
            """,
        options: [
            .value("--out", "FILE", "write to FILE (mode 0600) instead of standard output"),
            .value("--app", "APP", "add APP's own key pair (\(AppFace.allCases.map(\.rawValue).joined(separator: ", "))) to --config, signed with its secret"),
            .value("--config", "FILE", "with --app: the configuration file whose secret signs the app's keys; the keys are appended to it"),
        ],
        run: { invocation in
            if let name = invocation.value("--app") {
                guard let app = AppFace(rawValue: name) else {
                    throw CLIError("\(name) is not an app Summit serves a face to", fix: "use --app \(AppFace.allCases.map(\.rawValue).joined(separator: " or "))")
                }
                guard let file = invocation.value("--config") else {
                    throw CLIError("--app needs --config FILE", fix: "name the configuration file whose secret signs the app's keys (from `summit serve keys --out FILE`)")
                }
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw CLIError("cannot read \(file)", fix: "make it first with `summit serve keys --out \(file)`")
                }
                let values = GatewayConfiguration.parseEnvironmentFile(text)
                guard let secret = values[GatewayConfiguration.Key.jwtSecret], !secret.isEmpty else {
                    throw CLIError("\(file) has no \(GatewayConfiguration.Key.jwtSecret)", fix: "make the file with `summit serve keys --out FILE`")
                }
                guard values[app.anonKeyName] == nil, values[app.serviceRoleKeyName] == nil else {
                    throw CLIError("\(file) already holds \(app.rawValue)'s keys", fix: "keep them: apps in the field carry the anon key; remove the two lines first to replace it")
                }
                let lines = GatewayConfiguration.generateKeys(for: app, secret: Array(secret.utf8))
                guard let handle = FileHandle(forWritingAtPath: file) else {
                    throw CLIError("cannot write \(file)", fix: "check that it is writable")
                }
                handle.seekToEndOfFile()
                handle.write(Data(((text.hasSuffix("\n") ? "" : "\n") + lines).utf8))
                try? handle.close()
                invocation.console.note("added \(app.anonKeyName) and \(app.serviceRoleKeyName) to \(file): restart `summit serve`, and give the app the anon key")
                return 0
            }
            let text = GatewayConfiguration.generateKeys()
            guard let file = invocation.value("--out") else {
                invocation.console.out(text.trimmingCharacters(in: .newlines))
                return 0
            }
            guard !FileManager.default.fileExists(atPath: file) else {
                throw CLIError("\(file) already exists", fix: "remove it first, or choose another --out (a new secret signs everyone out)")
            }
            guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CLIError("cannot write \(file)", fix: "check that its folder exists and is writable")
            }
            invocation.console.note("wrote \(file): start the gateway with `summit serve --config \(file)`")
            return 0
        })

    static let signingKey = Command(
        name: "signing-key",
        summary: "Make a new asymmetric key (ES256 or RS256) to sign access tokens with.",
        discussion: """
            Writes a PEM private key (mode 0600, never overwritten) and prints its key id. Set             SUMMIT_JWT_SIGNING_KEY=FILE and access tokens are signed with it and carry its kid; its public half is             published at /auth/v1/.well-known/jwks.json. To rotate: make a new key, point SUMMIT_JWT_SIGNING_KEY at             it, add the old file to SUMMIT_JWT_PREVIOUS_KEYS (comma-separated) and restart; drop the old file once             SUMMIT_ACCESS_TOKEN_LIFETIME has passed. The anon and service role keys stay HS256 with the secret.
            """,
        options: [
            .value("--out", "FILE", "write the private key to FILE (required)"),
            .value("--algorithm", "ALG", "ES256 (default, P-256) or RS256 (2048-bit RSA)"),
            .flag("--json", "print {\"file\", \"kid\", \"alg\"} instead of a sentence"),
        ],
        run: { invocation in
            let path = invocation.commandPath
            guard let file = invocation.value("--out") else {
                throw CLIError.usage("--out FILE is required: where to write the private key", command: path)
            }
            let name = (invocation.value("--algorithm") ?? "ES256").uppercased()
            guard let algorithm = JWSKey.Algorithm(rawValue: name) else {
                throw CLIError.usage("--algorithm takes ES256 or RS256, not \"\(name)\"", command: path)
            }
            guard !FileManager.default.fileExists(atPath: file) else {
                throw CLIError("\(file) already exists", fix: "choose another --out: a key in use must stay until its tokens expire")
            }
            let key = try JWSKey.generate(algorithm)
            guard FileManager.default.createFile(atPath: file, contents: Data(key.pem.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CLIError("cannot write \(file)", fix: "check that its folder exists and is writable")
            }
            if invocation.json {
                try invocation.console.json(["file": file, "kid": key.kid, "alg": algorithm.rawValue])
            } else {
                invocation.console.out("wrote \(file): \(algorithm.rawValue) key \(key.kid)")
                invocation.console.note("sign with it: SUMMIT_JWT_SIGNING_KEY=\(file) (keep the key it replaces in SUMMIT_JWT_PREVIOUS_KEYS until its tokens expire)")
            }
            return 0
        })

    /// The configuration file's values, overridden by the environment's.
    static func loadConfiguration(_ invocation: Invocation, environment: [String: String]) throws -> GatewayConfiguration {
        var values: [String: String] = [:]
        if let file = invocation.value("--config") ?? environment["SUMMIT_GATEWAY_CONFIG"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CLIError("cannot read the configuration \(file)", fix: "make one with `summit serve keys --out \(file)`")
            }
            values = GatewayConfiguration.parseEnvironmentFile(text)
        }
        for (key, value) in environment where key.hasPrefix("SUMMIT_") { values[key] = value }
        do {
            return try GatewayConfiguration.from(values)
        } catch let problem as GatewayConfiguration.Problem {
            throw CLIError(problem.description)
        }
    }

    /// `SUMMIT_READ_URL`: where lag-tolerant reads go (docs/operations.md, "Read routing").
    static func readPool(_ environment: [String: String]) throws -> PostgresConfiguration? {
        guard let text = environment["SUMMIT_READ_URL"], !text.isEmpty else { return nil }
        do {
            return try PostgresConfiguration(text)
        } catch let error as PostgresError {
            throw CLIError("SUMMIT_READ_URL is not usable: \(error.message)",
                           fix: "give the standbys' URL (for example host=n1,n2,n3 target_session_attrs=prefer-standby), or unset it")
        }
    }
}
