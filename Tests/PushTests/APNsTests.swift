import Digest
import Foundation
import JSONDepth
import Testing
@testable import Push

struct APNsTests {
    /// A P-256 key in PKCS#8 PEM, as a .p8 file is: made for this test by openssl.
    static func makeKey() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeSegment(_ text: Substring) -> [String: Any]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    @Test("the provider token is an ES256 JWT naming the key and team, reused until the refresh interval")
    func providerToken() throws {
        let token = APNsProviderToken(teamID: "TEAM123456", keyID: "KEY1234567", signer: try ES256Signer(pem: try Self.makeKey()),
                                      refreshInterval: 40 * 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let jwt = try token.current(now: start)
        let parts = jwt.split(separator: ".")
        #expect(parts.count == 3)
        #expect(Self.decodeSegment(parts[0]) as? [String: String] == ["alg": "ES256", "kid": "KEY1234567"])
        #expect(Self.decodeSegment(parts[1])?["iss"] as? String == "TEAM123456")
        #expect(Self.decodeSegment(parts[1])?["iat"] as? Int == 1_800_000_000)
        #expect(parts[2].count == 86, "a 64-byte r‖s signature in base64url")
        #expect(try token.current(now: start.addingTimeInterval(39 * 60)) == jwt, "reused within 40 minutes")
        token.expire(now: start.addingTimeInterval(10 * 60))
        #expect(try token.current(now: start.addingTimeInterval(10 * 60)) == jwt, "not replaced within 20 minutes, even when APNs says expired")
        #expect(try token.current(now: start.addingTimeInterval(41 * 60)) != jwt, "replaced after 40 minutes")
    }

    @Test("the refresh interval stays between 20 and 55 minutes")
    func refreshBounds() throws {
        let signer = try ES256Signer(pem: try Self.makeKey())
        #expect(APNsProviderToken(teamID: "T", keyID: "K", signer: signer, refreshInterval: 60).refreshInterval == 20 * 60)
        #expect(APNsProviderToken(teamID: "T", keyID: "K", signer: signer, refreshInterval: 7200).refreshInterval == 55 * 60)
    }

    @Test("DER signatures become fixed-width r‖s, short integers left-padded")
    func rawSignature() throws {
        // SEQUENCE { INTEGER 0x01, INTEGER 0x00FF…(33 bytes with the sign byte) }
        let s = [UInt8](repeating: 0xFF, count: 32)
        let der: [UInt8] = [0x30, 3 + 2 + 33, 0x02, 0x01, 0x01, 0x02, 33, 0x00] + s
        let raw = try ES256Signer.rawSignature(fromDER: der)
        #expect(raw == [UInt8](repeating: 0, count: 31) + [1] + s)
    }

    @Test("a key that is not a P-256 private key is refused with what to do")
    func refusesOtherKeys() {
        #expect(throws: ES256Signer.Failure.notAPrivateKey) { try ES256Signer(pem: "not a key") }
        #expect(APNsConfigurationError(.notAPrivateKey).description.contains("AuthKey_KEYID.p8"))
    }

    @Test("APNs answers map to deliver, forget the token, retry or give up")
    func outcomes() {
        #expect(APNsOutcome.classify(status: 200, reason: nil) == .delivered)
        #expect(APNsOutcome.classify(status: 410, reason: "Unregistered") == .deadToken(reason: "Unregistered"))
        #expect(APNsOutcome.classify(status: 400, reason: "BadDeviceToken") == .giveUp(reason: "BadDeviceToken"))
        #expect(APNsOutcome.classify(status: 413, reason: "PayloadTooLarge") == .giveUp(reason: "PayloadTooLarge"))
        #expect(APNsOutcome.classify(status: 403, reason: "ExpiredProviderToken") == .retry(reason: "ExpiredProviderToken", after: nil))
        #expect(APNsOutcome.classify(status: 429, reason: "TooManyRequests", retryAfter: "120")
                == .retry(reason: "TooManyRequests", after: 120))
        #expect(APNsOutcome.classify(status: 503, reason: nil) == .retry(reason: "HTTP 503", after: nil))
    }

    @Test("configuration from the environment: what is missing or wrong is named")
    func configuration() throws {
        #expect(try APNsConfiguration.fromEnvironment(["PATH": "/bin"]) == nil, "no APNS_ variable: push is off")
        let key = try Self.makeKey()
        let complete = ["APNS_TEAM_ID": "TEAM123456", "APNS_KEY_ID": "KEY1234567", "APNS_AUTH_KEY": key,
                        "APNS_BUNDLE_ID": "com.powdermeet.PowderMeet"]
        let configuration = try #require(try APNsConfiguration.fromEnvironment(complete))
        #expect(configuration.topic == "com.powdermeet.PowderMeet")
        #expect(configuration.url(for: .sandbox) == APNsConfiguration.sandboxURL)
        #expect(configuration.url(for: .production) == APNsConfiguration.productionURL)
        var missing = complete
        missing["APNS_KEY_ID"] = nil
        #expect { try APNsConfiguration.fromEnvironment(missing) } throws: { ($0 as? APNsConfigurationError)?.problem.contains("APNS_KEY_ID") == true }
        var typo = complete
        typo["APNS_TEAMID"] = "x"
        #expect { try APNsConfiguration.fromEnvironment(typo) } throws: { ($0 as? APNsConfigurationError)?.problem.contains("APNS_TEAMID") == true }
        var badURL = complete
        badURL["APNS_SANDBOX_URL"] = "ftp://example.com"
        #expect(throws: APNsConfigurationError.self) { try APNsConfiguration.fromEnvironment(badURL) }
    }

    @Test("APNS_CONCURRENCY: 100 streams by default, 1 to 1000, and APNS_CONNECTIONS is named as replaced")
    func concurrencySetting() throws {
        let complete = ["APNS_TEAM_ID": "TEAM123456", "APNS_KEY_ID": "KEY1234567", "APNS_AUTH_KEY": try Self.makeKey(),
                        "APNS_TOPIC": "com.powdermeet.PowderMeet"]
        #expect(try APNsConfiguration.fromEnvironment(complete)?.concurrency == 100)
        #expect(try APNsConfiguration.fromEnvironment(complete.merging(["APNS_CONCURRENCY": "1"]) { $1 })?.concurrency == 1)
        #expect(try APNsConfiguration.fromEnvironment(complete.merging(["APNS_CONCURRENCY": "1000"]) { $1 })?.concurrency == 1000)
        for bad in ["0", "1001", "-3", "ten", "2.5", ""] {
            #expect { try APNsConfiguration.fromEnvironment(complete.merging(["APNS_CONCURRENCY": bad]) { $1 }) } throws: {
                ($0 as? APNsConfigurationError)?.problem == "APNS_CONCURRENCY must be a whole number from 1 to 1000, not \(bad)"
                    && ($0 as? APNsConfigurationError)?.fix?.contains("in flight at once on the one HTTP/2 connection") == true
            }
        }
        #expect { try APNsConfiguration.fromEnvironment(complete.merging(["APNS_CONNECTIONS": "4"]) { $1 }) } throws: {
            let error = $0 as? APNsConfigurationError
            return error?.problem == "the environment sets APNS_CONNECTIONS, which Summit no longer reads"
                && error?.fix?.contains("set APNS_CONCURRENCY instead") == true
        }
    }

    @Test("a configuration file nested 100,000 deep is refused by depth; a flat one loads")
    func configurationFileDepth() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deep = folder.appendingPathComponent("deep.json")
        try Data((#"{"team_id":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8).write(to: deep)
        #expect { try APNsConfiguration.load(file: deep.path) } throws: {
            ($0 as? APNsConfigurationError)?.problem == "\(deep.path) is too deep at byte \(11 + 511): \(JSONTooDeep(offset: 522).reason)"
        }
        let flat = folder.appendingPathComponent("apns.json")
        let settings = ["team_id": "TEAM123456", "key_id": "KEY1234567", "auth_key": try Self.makeKey(), "bundle_id": "com.powdermeet.PowderMeet"]
        try JSONSerialization.data(withJSONObject: settings).write(to: flat)
        #expect(try APNsConfiguration.load(file: flat.path).topic == "com.powdermeet.PowderMeet")
    }
}
