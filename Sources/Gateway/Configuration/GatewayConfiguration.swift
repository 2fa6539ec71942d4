import Digest
import Foundation

/// What `summit serve` needs besides the database: the JWT secret and the two API
/// keys (from the environment or a file, never from the repository), the schemas
/// REST exposes, token lifetimes, and the server's own options.
public struct GatewayConfiguration: Sendable {
    /// Signs and verifies every token: at least 32 bytes.
    public var jwtSecret: [UInt8]
    /// Signs access tokens (ES256 or RS256, published at `/auth/v1/.well-known/jwks.json`);
    /// nil signs them with the secret.
    public var signingKey: JWSKey?
    /// Earlier signing keys: they still verify the tokens they signed, until those expire.
    public var previousKeys: [JWSKey] = []
    /// The public API key (a JWT with role anon), what apps embed.
    public var anonKey: String
    /// The backend's key (role service_role, bypasses row level security): never ship it in an app.
    public var serviceRoleKey: String
    /// Each served app's own key pair (`summit serve keys --app`), whose requests address the app's face.
    public var appKeys: [AppFace: AppKeys] = [:]
    /// Seconds an access token lives.
    public var accessTokenLifetime = 3600
    /// Seconds an admin site session lives (`/admin`), however active.
    public var adminSessionLifetime = 8 * 3600
    /// Schemas REST may read and write, the first being the default profile.
    public var exposedSchemas = ["public", "social", "grids", "meet", "mountain", "activity"]
    /// Whether REST answers `Accept: application/vnd.pgrst.plan` with the query's plan
    /// (PostgREST's `db-plan-enabled`, off by default: a plan shows how the data is laid out).
    public var restPlanEnabled = false
    /// `iss` of the tokens issued.
    public var issuer = "summit"
    /// Connections to PostgreSQL for requests.
    public var databaseConnections = 8
    /// Largest upload, whatever a bucket allows.
    public var maxUploadBytes = 12 << 20
    public var server = ServerOptions()
    public var auth = AuthSettings()

    public init(jwtSecret: [UInt8], anonKey: String, serviceRoleKey: String) {
        self.jwtSecret = jwtSecret
        self.anonKey = anonKey
        self.serviceRoleKey = serviceRoleKey
    }

    /// The names read from the environment or a configuration file.
    public enum Key {
        public static let jwtSecret = "SUMMIT_JWT_SECRET"
        public static let signingKey = "SUMMIT_JWT_SIGNING_KEY"
        public static let previousKeys = "SUMMIT_JWT_PREVIOUS_KEYS"
        public static let anonKey = "SUMMIT_ANON_KEY"
        public static let serviceRoleKey = "SUMMIT_SERVICE_ROLE_KEY"
        public static let accessTokenLifetime = "SUMMIT_ACCESS_TOKEN_LIFETIME"
        public static let exposedSchemas = "SUMMIT_REST_SCHEMAS"
        public static let restPlanEnabled = "SUMMIT_REST_PLAN_ENABLED"
        public static let adminSessionLifetime = "SUMMIT_ADMIN_SESSION_LIFETIME"
    }

    /// A problem with the configuration: what is wrong and what to do.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `values` (a file's `KEY=value` lines merged with the environment) and checks
    /// that the keys are tokens signed with the secret, with the right roles.
    public static func from(_ values: [String: String]) throws -> GatewayConfiguration {
        let fix = "run `summit serve keys --out gateway.env` to make a secret and keys, then `summit serve --config gateway.env`"
        guard let secretText = values[Key.jwtSecret], !secretText.isEmpty else {
            throw Problem(description: "\(Key.jwtSecret) is not set: \(fix)")
        }
        let secret = Array(secretText.utf8)
        guard secret.count >= 32 else {
            throw Problem(description: "\(Key.jwtSecret) is \(secret.count) bytes; it must be at least 32: \(fix)")
        }
        guard let anon = values[Key.anonKey], let service = values[Key.serviceRoleKey] else {
            throw Problem(description: "\(Key.anonKey) and \(Key.serviceRoleKey) must both be set: \(fix)")
        }
        for (name, key, role) in [(Key.anonKey, anon, "anon"), (Key.serviceRoleKey, service, "service_role")] {
            do {
                let token = try JWT.verify(key, secret: secret)
                guard token.role == role else {
                    throw Problem(description: "\(name) has role \(token.role), not \(role): \(fix)")
                }
            } catch let failure as JWT.Failure {
                throw Problem(description: "\(name) is not usable with this secret (\(failure)): \(fix)")
            }
        }
        var configuration = GatewayConfiguration(jwtSecret: secret, anonKey: anon, serviceRoleKey: service)
        for app in AppFace.allCases {
            let appFix = "run `summit serve keys --app \(app.rawValue) --config FILE` to add the app's keys to the configuration"
            guard let appAnon = values[app.anonKeyName], let appService = values[app.serviceRoleKeyName] else {
                if values[app.anonKeyName] != nil || values[app.serviceRoleKeyName] != nil {
                    throw Problem(description: "\(app.anonKeyName) and \(app.serviceRoleKeyName) must both be set: \(appFix)")
                }
                continue
            }
            for (name, key, role) in [(app.anonKeyName, appAnon, "anon"), (app.serviceRoleKeyName, appService, "service_role")] {
                do {
                    let token = try JWT.verify(key, secret: secret)
                    guard token.role == role, token.app == app.rawValue else {
                        throw Problem(description: "\(name) has role \(token.role) and app \(token.app ?? "none"), not \(role) and \(app.rawValue): \(appFix)")
                    }
                } catch let failure as JWT.Failure {
                    throw Problem(description: "\(name) is not usable with this secret (\(failure)): \(appFix)")
                }
            }
            configuration.appKeys[app] = AppKeys(anon: appAnon, serviceRole: appService)
        }
        let keyFix = "make one with `summit serve signing-key --out FILE`"
        if let file = values[Key.signingKey], !file.isEmpty {
            let key = try readKey(file, Key.signingKey, fix: keyFix)
            guard key.isPrivate else {
                throw Problem(description: "\(Key.signingKey): \(file) is a public key; signing needs the private key: \(keyFix)")
            }
            configuration.signingKey = key
        }
        for file in (values[Key.previousKeys] ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
        where !file.isEmpty {
            configuration.previousKeys.append(try readKey(file, Key.previousKeys, fix: "list the PEM files of keys that signed before"))
        }
        let kids = configuration.tokenKeys.verifyingKeys.map(\.kid)
        if let repeated = kids.first(where: { kid in kids.filter { $0 == kid }.count > 1 }) {
            throw Problem(description: "\(Key.signingKey) and \(Key.previousKeys) name one key twice (kid \(repeated)): list each key once")
        }
        if let text = values[Key.accessTokenLifetime] {
            guard let seconds = Int(text), (60...86_400 * 7).contains(seconds) else {
                throw Problem(description: "\(Key.accessTokenLifetime) must be seconds between 60 and 604800, not \"\(text)\"")
            }
            configuration.accessTokenLifetime = seconds
        }
        configuration.adminSessionLifetime = try seconds(values, Key.adminSessionLifetime, 300...86_400) ?? configuration.adminSessionLifetime
        if let text = values[Key.exposedSchemas] {
            let schemas = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let forbidden = schemas.filter { ["auth", "private", "storage", "summit", "realtime", "pg_catalog", "information_schema"].contains($0) }
            guard !schemas.isEmpty, forbidden.isEmpty else {
                throw Problem(description: "\(Key.exposedSchemas) must list app schemas only; \(forbidden.joined(separator: ", ")) may not be exposed")
            }
            configuration.exposedSchemas = schemas
        }
        // An app's face is exposed wherever its keys are configured: it is where its requests go.
        for app in configuration.appKeys.keys.sorted(by: { $0.rawValue < $1.rawValue })
        where !configuration.exposedSchemas.contains(app.schema) {
            configuration.exposedSchemas.append(app.schema)
        }
        configuration.restPlanEnabled = try flag(values, Key.restPlanEnabled) ?? false
        configuration.auth = try AuthSettings.from(values)
        return configuration
    }

    /// Verifies and signs tokens: the secret, the signing key and the earlier keys.
    public var tokenKeys: TokenKeys { TokenKeys(secret: jwtSecret, signingKey: signingKey, previousKeys: previousKeys) }

    /// A key file named by setting `key`: PEM, or a JWK (JSON, as GoTrue's `GOTRUE_JWT_KEYS`
    /// holds them, its `kid` kept).
    static func readKey(_ file: String, _ key: String, fix: String) throws(Problem) -> JWSKey {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw Problem(description: "\(key): cannot read \(file): \(fix)")
        }
        do {
            guard text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") else { return try JWSKey(pem: text) }
            guard let jwk = JSONText.parse(Array(text.utf8)) as? [String: Any] else {
                throw Problem(description: "\(key): \(file) is not a JSON object (a JWK) nor PEM: \(fix)")
            }
            return try JWSKey(jwk: jwk)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(description: "\(key): \(file): \(error): \(fix)")
        }
    }

    /// A true-or-false setting, nil when absent.
    static func flag(_ values: [String: String], _ key: String) throws(Problem) -> Bool? {
        guard let text = values[key] else { return nil }
        switch text.lowercased() {
        case "true", "1", "on", "yes": return true
        case "false", "0", "off", "no", "": return false
        default: throw Problem(description: "\(key) must be true or false, not \"\(text)\"")
        }
    }

    /// A number of seconds in `range`, nil when absent.
    static func seconds(_ values: [String: String], _ key: String, _ range: ClosedRange<Int>) throws(Problem) -> Int? {
        guard let text = values[key] else { return nil }
        guard let seconds = Int(text), range.contains(seconds) else {
            throw Problem(description: "\(key) must be seconds between \(range.lowerBound) and \(range.upperBound), not \"\(text)\"")
        }
        return seconds
    }

    /// `KEY=value` lines; `#` comments and blank lines skipped, optional quotes removed.
    public static func parseEnvironmentFile(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            var key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("export ") { key = String(key.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[key] = value
        }
        return values
    }

    /// A new random secret and the anon and service keys signed with it, valid for ten years,
    /// as the lines of a configuration file.
    public static func generateKeys(now: Date = Date()) -> String {
        let secret = Base64URL.encode(HMACSHA256.randomBytes(48))
        return """
            # Summit gateway secrets. Keep this file out of version control (mode 0600).
            # The anon key goes into apps; the service role key bypasses row level security.
            \(Key.jwtSecret)=\(secret)
            \(Key.anonKey)=\(apiKey("anon", app: nil, secret: Array(secret.utf8), now: now))
            \(Key.serviceRoleKey)=\(apiKey("service_role", app: nil, secret: Array(secret.utf8), now: now))

            """
    }

    /// An app's key pair signed with `secret`, as configuration lines.
    public static func generateKeys(for app: AppFace, secret: [UInt8], now: Date = Date()) -> String {
        """
        # \(app.rawValue): its requests address the \(app.schema) face. The anon key goes into the app.
        \(app.anonKeyName)=\(apiKey("anon", app: app, secret: secret, now: now))
        \(app.serviceRoleKeyName)=\(apiKey("service_role", app: app, secret: secret, now: now))

        """
    }

    /// An API key: a token of `role` (and `app`) valid for ten years.
    static func apiKey(_ role: String, app: AppFace?, secret: [UInt8], now: Date) -> String {
        let issued = Int(now.timeIntervalSince1970)
        var claims: [String: Any] = ["role": role, "iss": "summit", "iat": issued, "exp": issued + 10 * 365 * 86_400]
        if let app { claims["app"] = app.rawValue }
        return JWT.sign(claims: claims, secret: secret)
    }
}
