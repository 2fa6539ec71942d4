import Digest
import Foundation
import Gateway
import Testing

/// `grant_type=id_token` (Sign in with Apple and Google) against key sets the test
/// makes and serves from files: what is checked before an account is touched, and
/// how accounts are found, linked and made.
@Suite struct IDTokenTests {
    /// A provider stand-in: its signing key, and its key set in a file the gateway reads.
    struct Provider {
        let name: String
        let issuer: String
        let key: JWSKey
        let keySet: URL
        static let clientID = "app.summit.test"

        init(_ name: String, issuer: String, algorithm: JWSKey.Algorithm = .rs256) throws {
            self.name = name
            self.issuer = issuer
            key = try JWSKey.generate(algorithm)
            keySet = FileManager.default.temporaryDirectory.appendingPathComponent("summit-\(name)-jwks-\(UUID().uuidString).json")
            let set = ["keys": [key.publicJWK]]
            try JSONSerialization.data(withJSONObject: set).write(to: keySet)
        }

        var configuration: IdentityProvider {
            IdentityProvider(name: name, issuers: [issuer], clientIDs: ["other.app", Self.clientID], keySetURL: keySet)
        }

        func token(_ subject: String, email: String? = nil, verified: Any = true, nonce: String? = "n-0S6_WzA2Mj",
                   audience: String = clientID, lifetime: TimeInterval = 600, signer: JWSKey? = nil,
                   extra: [String: Any] = [:]) throws -> String {
            let now = Date().timeIntervalSince1970
            var claims: [String: Any] = ["iss": issuer, "aud": audience, "sub": subject, "iat": now - 5, "exp": now + lifetime]
            if let email { claims["email"] = email; claims["email_verified"] = verified }
            if let nonce { claims["nonce"] = SHA256.hex(nonce) }
            claims.merge(extra) { $1 }
            return try JWT.sign(claims: claims, keys: TokenKeys(secret: [], signingKey: signer ?? key))
        }
    }

    static func grant(_ gateway: GatewayHarness, _ provider: String, _ token: String,
                      nonce: String? = "n-0S6_WzA2Mj") async throws -> (status: Int, body: [String: Any]) {
        var body: [String: Any] = ["provider": provider, "id_token": token]
        if let nonce { body["nonce"] = nonce }
        let response = try await gateway.http("POST", "/auth/v1/token?grant_type=id_token", json: body)
        return (response.status, response.json as? [String: Any] ?? [:])
    }

    @Test func everyCheckRefusesBeforeAnAccountIsMade() async throws {
        let apple = try Provider("apple", issuer: "https://appleid.apple.com")
        defer { try? FileManager.default.removeItem(at: apple.keySet) }
        try await withGateway(configure: { $0.auth.identityProviders = ["apple": apple.configuration] }) { gateway in
            let stranger = try JWSKey(pem: try JWSKey.generate(.rs256).pem, keyID: apple.key.kid)
            let refusals: [(String, String, String?, String)] = [
                ("a stranger's key under Apple's kid", try apple.token("s1", signer: stranger), "n-0S6_WzA2Mj", "bad_jwt"),
                ("another app's audience", try apple.token("s1", audience: "com.example.other"), "n-0S6_WzA2Mj", "bad_jwt"),
                ("an expired token", try apple.token("s1", lifetime: -60), "n-0S6_WzA2Mj", "bad_jwt"),
                ("a wrong nonce", try apple.token("s1"), "another nonce", "bad_jwt"),
                ("a nonce in the token only", try apple.token("s1"), nil, "bad_jwt"),
                ("a nonce in the request only", try apple.token("s1", nonce: nil), "n-0S6_WzA2Mj", "bad_jwt"),
                ("another issuer", try apple.token("s1", extra: ["iss": "https://accounts.google.com"]), "n-0S6_WzA2Mj", "bad_jwt"),
                ("no subject", try apple.token(""), "n-0S6_WzA2Mj", "bad_jwt"),
                ("not a JWT", "not.a.jwt", nil, "bad_jwt"),
            ]
            for (what, token, nonce, code) in refusals {
                let answer = try await Self.grant(gateway, "apple", token, nonce: nonce)
                #expect(answer.status == 400, "\(what): \(answer)")
                #expect(answer.body["error_code"] as? String == code, "\(what): \(answer.body)")
            }
            let disabled = try await Self.grant(gateway, "google", try apple.token("s1"))
            #expect(disabled.status == 400 && disabled.body["error_code"] as? String == "provider_disabled", "\(disabled)")
            #expect((disabled.body["msg"] as? String)?.contains("SUMMIT_AUTH_GOOGLE_CLIENT_IDS") == true)
            let users = try await gateway.sql { try await $0.query("select count(*) from auth.users").scalar(Int.self) }
            #expect(users == 0)
        }
    }

    @Test func appleAndGoogleFindLinkAndMakeAccounts() async throws {
        let apple = try Provider("apple", issuer: "https://appleid.apple.com")
        let google = try Provider("google", issuer: "https://accounts.google.com", algorithm: .es256)
        defer {
            try? FileManager.default.removeItem(at: apple.keySet)
            try? FileManager.default.removeItem(at: google.keySet)
        }
        try await withGateway(configure: {
            $0.auth.identityProviders = ["apple": apple.configuration, "google": google.configuration]
        }) { gateway in
            // A new Apple user, whose address Apple vouches for (as the string "true").
            let first = try await Self.grant(gateway, "apple", try apple.token("001234.apple", email: "Fay@privaterelay.example", verified: "true",
                                                                             extra: ["name": "Fay Doe"]))
            #expect(first.status == 200, "\(first.body)")
            let fay = try #require(first.body["user"] as? [String: Any])
            #expect(fay["email"] as? String == "fay@privaterelay.example" && fay["email_confirmed_at"] is String)
            #expect((fay["app_metadata"] as? [String: Any])?["provider"] as? String == "apple")
            // The token's name is the user's metadata, as full_name too.
            #expect((fay["user_metadata"] as? [String: Any])?["full_name"] as? String == "Fay Doe")
            #expect((fay["user_metadata"] as? [String: Any])?["iss"] as? String == "https://appleid.apple.com")
            let identities = try #require(fay["identities"] as? [[String: Any]])
            #expect(Set(identities.compactMap { $0["provider"] as? String }) == ["apple", "email"])
            #expect(identities.first { $0["provider"] as? String == "apple" }?["id"] as? String == "001234.apple")
            // The session works, and says how it began.
            let token = try #require(first.body["access_token"] as? String)
            #expect(try await gateway.http("GET", "/auth/v1/user", token: token).status == 200)

            // The same Apple account again, with no address this time (Apple sends it once): the same user.
            let again = try await Self.grant(gateway, "apple", try apple.token("001234.apple"))
            #expect((again.body["user"] as? [String: Any])?["id"] as? String == fay["id"] as? String, "\(again.body)")

            // Google vouching for the address of an email account links to it.
            let gus = try await gateway.signUp("gus")
            let linked = try await Self.grant(gateway, "google", try google.token("g-118", email: "gus@example.test",
                                                                                    extra: ["name": "Gus", "picture": "https://example.test/g.png"]))
            #expect(linked.status == 200, "\(linked.body)")
            let gusUser = try #require(linked.body["user"] as? [String: Any])
            #expect(gusUser["id"] as? String == gus.id.uuidString.lowercased())
            #expect((gusUser["app_metadata"] as? [String: Any])?["providers"] as? [String] == ["email", "google"])
            // The password still works beside Google.
            let password = try await gateway.http("POST", "/auth/v1/token?grant_type=password",
                                                  json: ["email": "gus@example.test", "password": "correct horse"])
            #expect(password.status == 200)

            // An address Google does not vouch for is not linked: a new account, with no address.
            let unvouched = try await Self.grant(gateway, "google", try google.token("g-999", email: "gus@example.test", verified: false))
            #expect(unvouched.status == 200, "\(unvouched.body)")
            let other = try #require(unvouched.body["user"] as? [String: Any])
            #expect(other["id"] as? String != gus.id.uuidString.lowercased())
            #expect(other["email"] as? String == "")

        }
    }
}
