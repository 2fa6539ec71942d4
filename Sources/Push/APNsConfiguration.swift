import Foundation
import JSONDepth

/// Where and as whom Summit talks to APNs: the team, the auth key (its id and
/// the .p8 file), the app's bundle id (the topic), and the two endpoints.
///
/// Read from the environment — the names of the push runbook (`APNS_TEAM_ID`,
/// `APNS_KEY_ID`, `APNS_AUTH_KEY` or `APNS_KEY_FILE`, `APNS_TOPIC` or
/// `APNS_BUNDLE_ID`, and optionally `APNS_PRODUCTION_URL`, `APNS_SANDBOX_URL`,
/// `APNS_CA_FILE`, `APNS_TIMEOUT_SECONDS`, `APNS_TOKEN_REFRESH_MINUTES`,
/// `APNS_CONCURRENCY`) — or from a JSON file with the same keys in lower case
/// without the prefix (`team_id`, `key_id`, `key_file`, `topic`, …). The key
/// never lives in the repository.
public struct APNsConfiguration: Sendable {
    public static let productionURL = URL(string: "https://api.push.apple.com")!
    public static let sandboxURL = URL(string: "https://api.sandbox.push.apple.com")!
    /// Streams in flight on one connection: Apple's documented limit per connection is far above it,
    /// and beyond a hundred a deliverer's batch, not the connection, is what limits the rate.
    public static let defaultConcurrency = 100
    public static let concurrencyRange = 1...1000

    public var teamID: String
    public var keyID: String
    /// The .p8 file's text (PKCS#8 PEM).
    public var privateKeyPEM: String
    /// The app's bundle id: `apns-topic`.
    public var topic: String
    /// `https://` (TLS, ALPN h2) or `http://` (h2c through the HTTP/1.1 Upgrade, for a local stand-in).
    public var productionURL: URL
    public var sandboxURL: URL
    /// Extra trust anchors for TLS (PEM), for an endpoint with a private certificate.
    public var caFile: String?
    /// How long one notification may take once it is on the connection, connecting and the TLS handshake included.
    public var timeout: Duration
    /// How long one provider token is reused (kept between 20 and 55 minutes).
    public var tokenRefreshInterval: TimeInterval
    /// How many notifications may be in flight at once as streams on the one HTTP/2
    /// connection per environment (`concurrencyRange`); 1 sends one at a time.
    public var concurrency: Int

    public init(teamID: String, keyID: String, privateKeyPEM: String, topic: String,
                productionURL: URL = APNsConfiguration.productionURL, sandboxURL: URL = APNsConfiguration.sandboxURL,
                caFile: String? = nil, timeout: Duration = .seconds(15), tokenRefreshInterval: TimeInterval = 40 * 60,
                concurrency: Int = APNsConfiguration.defaultConcurrency) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
        self.topic = topic
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.caFile = caFile
        self.timeout = timeout
        self.tokenRefreshInterval = tokenRefreshInterval
        self.concurrency = concurrency
    }

    public func url(for environment: APNsEnvironment) -> URL {
        environment == .production ? productionURL : sandboxURL
    }

    /// The configuration in `environment`, or nil when no `APNS_` variable is set at all.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> APNsConfiguration? {
        let settings = environment.filter { $0.key.hasPrefix("APNS_") }
        guard !settings.isEmpty else { return nil }
        return try make(settings.reduce(into: [:]) { $0[String($1.key.dropFirst(5)).lowercased()] = $1.value },
                        source: "the environment", name: { "APNS_" + $0.uppercased() })
    }

    /// The configuration in a JSON file of string values.
    public static func load(file path: String) throws -> APNsConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw APNsConfigurationError("cannot read \(path)", fix: "pass the path of the APNs configuration (a JSON file)")
        }
        do {
            try JSONDepth.check(data)
        } catch {
            throw APNsConfigurationError("\(path) is too deep at byte \(error.offset): \(error.reason)",
                fix: #"the configuration is one flat object, {"team_id": "…", "key_id": "…", "key_file": "AuthKey_….p8", "topic": "com.example.app"}"#)
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw APNsConfigurationError("\(path) is not a JSON object",
                fix: #"write {"team_id": "…", "key_id": "…", "key_file": "AuthKey_….p8", "topic": "com.example.app"}"#)
        }
        var settings: [String: String] = [:]
        for (key, value) in object {
            guard let text = value as? String else {
                throw APNsConfigurationError("\(key) in \(path) is not a string", fix: "quote every value")
            }
            settings[key] = text
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        // A relative key_file is relative to the configuration file.
        if let keyFile = settings["key_file"], !keyFile.hasPrefix("/") {
            settings["key_file"] = folder.appendingPathComponent(keyFile).path
        }
        return try make(settings, source: path, name: { $0 })
    }

    static func make(_ settings: [String: String], source: String, name: (String) -> String) throws -> APNsConfiguration {
        func required(_ key: String, _ what: String) throws -> String {
            guard let value = settings[key]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                throw APNsConfigurationError("\(source) has no \(name(key))", fix: "set it to \(what)")
            }
            return value
        }
        let known: Set = ["team_id", "key_id", "auth_key", "key_file", "topic", "bundle_id", "production_url",
                          "sandbox_url", "ca_file", "environment", "timeout_seconds", "token_refresh_minutes", "concurrency"]
        if settings["connections"] != nil {
            throw APNsConfigurationError("\(source) sets \(name("connections")), which Summit no longer reads",
                fix: "Summit sends on one HTTP/2 connection per APNs endpoint: set \(name("concurrency")) instead, "
                    + "the notifications in flight on it (\(concurrencyRange.lowerBound) to \(concurrencyRange.upperBound), "
                    + "default \(defaultConcurrency))")
        }
        if let unknown = settings.keys.sorted().first(where: { !known.contains($0) }) {
            throw APNsConfigurationError("\(source) sets \(name(unknown)), which Summit does not know",
                fix: "use \(known.sorted().map(name).joined(separator: ", "))")
        }
        let teamID = try required("team_id", "your Apple Developer team id (10 characters, top right of the developer portal)")
        let keyID = try required("key_id", "the 10-character id of the APNs auth key")
        let pem: String
        if let text = settings["auth_key"], !text.isEmpty {
            pem = text
        } else {
            let path = try required("key_file", "the path of the AuthKey_KEYID.p8 file (kept outside the repository)")
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw APNsConfigurationError("cannot read the APNs key \(path)", fix: "check \(name("key_file")) and the file's permissions")
            }
            pem = text
        }
        guard let topic = settings["topic"] ?? settings["bundle_id"], !topic.isEmpty else {
            throw APNsConfigurationError("\(source) has no \(name("topic"))", fix: "set it to the app's bundle id, like com.powdermeet.PowderMeet")
        }
        func url(_ key: String, default fallback: URL) throws -> URL {
            guard let text = settings[key], !text.isEmpty else { return fallback }
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw APNsConfigurationError("\(name(key)) is not an http(s) URL: \(text)",
                    fix: "use https://host[:port] (http:// only for a local HTTP/2 stand-in)")
            }
            return url
        }
        var configuration = APNsConfiguration(teamID: teamID, keyID: keyID, privateKeyPEM: pem, topic: topic,
                                              productionURL: try url("production_url", default: productionURL),
                                              sandboxURL: try url("sandbox_url", default: sandboxURL),
                                              caFile: settings["ca_file"].flatMap { $0.isEmpty ? nil : $0 })
        if let text = settings["timeout_seconds"] {
            guard let seconds = Double(text), seconds >= 1 else {
                throw APNsConfigurationError("\(name("timeout_seconds")) is not a number of seconds, at least 1: \(text)")
            }
            configuration.timeout = .milliseconds(Int64(seconds * 1000))
        }
        if let text = settings["token_refresh_minutes"] {
            guard let minutes = Double(text), minutes >= 20, minutes <= 55 else {
                throw APNsConfigurationError("\(name("token_refresh_minutes")) must be 20 to 55 minutes, not \(text)",
                    fix: "APNs refuses tokens older than an hour and new tokens more often than every 20 minutes")
            }
            configuration.tokenRefreshInterval = minutes * 60
        }
        if let text = settings["concurrency"] {
            guard let count = Int(text.trimmingCharacters(in: .whitespaces)), concurrencyRange.contains(count) else {
                throw APNsConfigurationError(
                    "\(name("concurrency")) must be a whole number from \(concurrencyRange.lowerBound) to \(concurrencyRange.upperBound), not \(text)",
                    fix: "it is how many notifications are in flight at once on the one HTTP/2 connection to each APNs endpoint "
                        + "(default \(defaultConcurrency); 1 sends them one after another)")
            }
            configuration.concurrency = count
        }
        return configuration
    }
}
