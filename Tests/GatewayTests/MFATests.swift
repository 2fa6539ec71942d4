import Digest
import Foundation
import Gateway
import Testing

/// `/auth/v1/factors` over HTTP: a QR code an authenticator app can scan, the
/// session raised to aal2 by a code and kept there by refreshes, and the rules
/// around changing factors.
@Suite struct MFATests {
    static func claims(_ token: String) -> [String: Any] {
        let payload = Base64URL.decode(token.split(separator: ".")[1]) ?? []
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] ?? [:]
    }

    /// The code of `secret` now, from SQL's RFC 6238 function (pgtap/gateway_auth_mfa.sql checks it against the RFC).
    static func code(_ gateway: GatewayHarness, _ secret: String) async throws -> String {
        try await gateway.sql {
            try await $0.query("select auth.gateway_totp(auth.gateway_base32_decode(\(secret)), floor(extract(epoch from now()) / 30)::bigint)")
                .scalar(String.self)
        }
    }

    /// What zbarimg reads off the SVG, rendered to PNG by rsvg-convert.
    static func scan(_ svg: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("summit-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try svg.write(to: folder.appendingPathComponent("code.svg"), atomically: true, encoding: .utf8)
        func run(_ tool: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
            process.currentDirectoryURL = folder
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw TestFailure("\(tool) failed (\(process.terminationStatus)): install zbar-tools and librsvg2-bin (apt-get install zbar-tools librsvg2-bin)")
            }
            return text
        }
        _ = try run("rsvg-convert", ["--width", "400", "--output", "code.png", "code.svg"])
        return try run("zbarimg", ["--quiet", "--raw", "code.png"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func enrollScanVerifyRefreshAndUnenroll() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let enrolled = try await gateway.http("POST", "/auth/v1/factors", token: ann.accessToken,
                                                  json: ["factor_type": "totp", "friendly_name": "Phone", "issuer": "PowderMeet"])
            #expect(enrolled.status == 200, "\(enrolled.text)")
            let factor = try #require(enrolled.json as? [String: Any])
            let factorID = try #require(factor["id"] as? String)
            let totp = try #require(factor["totp"] as? [String: Any])
            let secret = try #require(totp["secret"] as? String)
            let uri = try #require(totp["uri"] as? String)
            #expect(uri == "otpauth://totp/PowderMeet:ann%40example.test?secret=\(secret)&issuer=PowderMeet")
            // What a phone's camera reads off the code is the URI.
            let svg = try #require(totp["qr_code"] as? String)
            #expect(svg.hasPrefix("<svg"), "the platform answers the SVG; clients make the data URI")
            #expect(try Self.scan(svg) == uri)

            let challenge = try await gateway.http("POST", "/auth/v1/factors/\(factorID)/challenge", token: ann.accessToken, json: [:])
            let challengeID = try #require((challenge.json as? [String: Any])?["id"] as? String, "\(challenge.text)")
            let code = try await Self.code(gateway, secret)
            let wrong = try await gateway.http("POST", "/auth/v1/factors/\(factorID)/verify", token: ann.accessToken,
                                               json: ["challenge_id": challengeID, "code": code == "123456" ? "654321" : "123456"])
            #expect(wrong.status == 422 && (wrong.json as? [String: Any])?["error_code"] as? String == "mfa_verification_failed")
            let verified = try await gateway.http("POST", "/auth/v1/factors/\(factorID)/verify", token: ann.accessToken,
                                                  json: ["challenge_id": challengeID, "code": code])
            #expect(verified.status == 200, "\(verified.text)")
            let session = try #require(verified.json as? [String: Any])
            let strong = try #require(session["access_token"] as? String)
            let claims = Self.claims(strong)
            #expect(claims["aal"] as? String == "aal2")
            #expect((claims["amr"] as? [[String: Any]])?.compactMap { $0["method"] as? String } == ["totp", "password"])
            #expect(claims["session_id"] as? String == Self.claims(ann.accessToken)["session_id"] as? String, "the same session")
            let me = try await gateway.http("GET", "/auth/v1/user", token: strong)
            let factors = (me.json as? [String: Any])?["factors"] as? [[String: Any]]
            #expect(factors?.first?["status"] as? String == "verified" && factors?.first?["secret"] == nil)

            // A refresh keeps aal2.
            let refreshed = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token",
                                                   json: ["refresh_token": session["refresh_token"] as? String ?? ""])
            let again = try #require((refreshed.json as? [String: Any])?["access_token"] as? String, "\(refreshed.text)")
            #expect(Self.claims(again)["aal"] as? String == "aal2")

            // Someone else reaches no factor of Ann's; an aal1 session may not remove a verified one.
            let bob = try await gateway.signUp("bob")
            let foreign = try await gateway.http("POST", "/auth/v1/factors/\(factorID)/challenge", token: bob.accessToken, json: [:])
            #expect(foreign.status == 404 && (foreign.json as? [String: Any])?["error_code"] as? String == "mfa_factor_not_found")
            let weak = try await gateway.http("POST", "/auth/v1/token?grant_type=password",
                                              json: ["email": "ann@example.test", "password": "correct horse"])
            let weakToken = try #require((weak.json as? [String: Any])?["access_token"] as? String)
            let refused = try await gateway.http("DELETE", "/auth/v1/factors/\(factorID)", token: weakToken)
            #expect(refused.status == 403 && (refused.json as? [String: Any])?["error_code"] as? String == "insufficient_aal",
                    "\(refused.text)")
            let removed = try await gateway.http("DELETE", "/auth/v1/factors/\(factorID)", token: again)
            #expect(removed.status == 200 && (removed.json as? [String: Any])?["id"] as? String == factorID, "\(removed.text)")

            let phone = try await gateway.http("POST", "/auth/v1/factors", token: ann.accessToken, json: ["factor_type": "phone"])
            #expect(phone.status == 422)
        }
    }
}
