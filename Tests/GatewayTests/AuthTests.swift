import Foundation
import Gateway
import Postgres
import Testing

/// `/auth/v1` against a real database: sign-up, grants, rotation and reuse, sign-out,
/// and tokens that must not pass.
@Suite struct AuthTests {
    @Test func signUpSignInAndTheUser() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let me = try await gateway.http("GET", "/auth/v1/user", token: ann.accessToken)
            #expect(me.status == 200)
            let user = try #require(me.json as? [String: Any])
            #expect(user["id"] as? String == ann.id.uuidString.lowercased())
            #expect(user["email"] as? String == "ann@example.test")
            #expect((user["user_metadata"] as? [String: Any])?["username"] as? String == "ann")
            // The profile came from the username in the metadata, as on the hosted platform.
            let username = try await gateway.sql { try await $0.query("select username from social.profiles where id = \(ann.id)").scalar(String.self) }
            #expect(username == "ann")

            let signIn = try await gateway.http("POST", "/auth/v1/token?grant_type=password",
                                                json: ["email": "ANN@example.test", "password": "correct horse"])
            #expect(signIn.status == 200)
            let session = try #require(signIn.json as? [String: Any])
            #expect(session["token_type"] as? String == "bearer")
            #expect(session["expires_in"] as? Int == 3600)
            #expect((session["refresh_token"] as? String)?.count ?? 0 >= 30)
        }
    }

    @Test func signUpRefusalsSayWhatWasWrong() async throws {
        try await withGateway { gateway in
            _ = try await gateway.signUp("bea")
            let again = try await gateway.http("POST", "/auth/v1/signup", json: ["email": "Bea@Example.test", "password": "another one"])
            #expect(again.status == 422)
            #expect((again.json as? [String: Any])?["error_code"] as? String == "user_already_exists")
            let weak = try await gateway.http("POST", "/auth/v1/signup", json: ["email": "cy@example.test", "password": "abc"])
            #expect(weak.status == 422)
            #expect((weak.json as? [String: Any])?["error_code"] as? String == "weak_password")
            let email = try await gateway.http("POST", "/auth/v1/signup", json: ["email": "not-an-email", "password": "secret123"])
            #expect(email.status == 400)
            #expect((email.json as? [String: Any])?["error_code"] as? String == "validation_failed")
            let json = try await gateway.http("POST", "/auth/v1/signup", headers: ["Content-Type": "application/json"], body: Array("{nope".utf8))
            #expect(json.status == 400)
            // Nothing was written by the refusals.
            let users = try await gateway.sql { try await $0.query("select count(*) from auth.users").scalar(Int.self) }
            #expect(users == 1)
        }
    }

    @Test func wrongPasswordsAndUnknownEmailsGetTheSameAnswer() async throws {
        try await withGateway { gateway in
            _ = try await gateway.signUp("dan")
            let wrong = try await gateway.http("POST", "/auth/v1/token?grant_type=password", json: ["email": "dan@example.test", "password": "nope nope"])
            let unknown = try await gateway.http("POST", "/auth/v1/token?grant_type=password", json: ["email": "eve@example.test", "password": "nope nope"])
            #expect(wrong.status == 400)
            #expect(unknown.status == 400)
            #expect(wrong.text == unknown.text)
            // A phone number is unknown here too, and answered the same.
            let phone = try await gateway.http("POST", "/auth/v1/token?grant_type=password", json: ["phone": "+15555550100", "password": "nope nope"])
            #expect(phone.status == 400 && (phone.json as? [String: Any])?["error_code"] as? String == "invalid_credentials", "\(phone.text)")
            #expect((wrong.json as? [String: Any])?["error_code"] as? String == "invalid_credentials")
        }
    }

    @Test func passwordsAndRefreshTokensAreStoredHashed() async throws {
        try await withGateway { gateway in
            let fay = try await gateway.signUp("fay", password: "plain text never stored")
            let stored = try await gateway.sql { db in
                try await db.query("""
                    select (select hash from auth.password_hashes where user_id = \(fay.id)) as hash,
                           (select count(*) from auth.refresh_token_hashes where token_hash = \(fay.refreshToken)) as plain,
                           (select count(*) from auth.refresh_token_hashes t join auth.refresh_sessions s on s.id = t.session_id
                            where s.user_id = \(fay.id)) as tokens
                    """).first(as: Stored.self)!
            }
            #expect(stored.hash.hasPrefix("$2a$10$"))
            #expect(!stored.hash.contains("plain text"))
            #expect(stored.plain == 0, "the token itself is nowhere in the table")
            #expect(stored.tokens == 1)
        }
    }

    private struct Stored: Decodable {
        var hash: String
        var plain: Int
        var tokens: Int
    }

    @Test func refreshTokensRotateAndAReuseRevokesTheSession() async throws {
        try await withGateway { gateway in
            let gus = try await gateway.signUp("gus")
            let first = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": gus.refreshToken])
            #expect(first.status == 200)
            let rotated = try #require((first.json as? [String: Any])?["refresh_token"] as? String)
            #expect(rotated != gus.refreshToken)
            // The old token again: it leaked. Refused, and the whole session goes.
            let reuse = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": gus.refreshToken])
            #expect(reuse.status == 400)
            #expect((reuse.json as? [String: Any])?["error_code"] as? String == "refresh_token_already_used")
            let afterReuse = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": rotated])
            #expect(afterReuse.status == 400)
            #expect((afterReuse.json as? [String: Any])?["error_code"] as? String == "session_not_found")
            let made = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": "made-up"])
            #expect((made.json as? [String: Any])?["error_code"] as? String == "refresh_token_not_found")
        }
    }

    @Test func signOutRevokesRefreshTokens() async throws {
        try await withGateway { gateway in
            let hal = try await gateway.signUp("hal")
            let other = try await gateway.http("POST", "/auth/v1/token?grant_type=password", json: ["email": "hal@example.test", "password": "correct horse"])
            let otherRefresh = try #require((other.json as? [String: Any])?["refresh_token"] as? String)
            let logout = try await gateway.http("POST", "/auth/v1/logout?scope=local", token: hal.accessToken)
            #expect(logout.status == 204)
            let refused = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": hal.refreshToken])
            #expect(refused.status == 400)
            // scope=local left the other device signed in.
            let kept = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": otherRefresh])
            #expect(kept.status == 200)
            let keptAccess = try #require((kept.json as? [String: Any])?["access_token"] as? String)
            let keptRefresh = try #require((kept.json as? [String: Any])?["refresh_token"] as? String)
            #expect(try await gateway.http("POST", "/auth/v1/logout", token: keptAccess).status == 204)
            #expect(try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": keptRefresh]).status == 400)
        }
    }

    @Test func tokensThatMustNotPass() async throws {
        try await withGateway { gateway in
            let ivy = try await gateway.signUp("ivy")
            let claims = try #require(String(ivy.accessToken.split(separator: ".")[1]).base64URLDecodedJSON())
            // Signed with another secret.
            let forged = JWT.sign(claims: claims, secret: Array("another secret of thirty-two bytes!!".utf8))
            #expect(try await gateway.http("GET", "/auth/v1/user", token: forged).status == 403)
            // alg none, no signature.
            let parts = ivy.accessToken.split(separator: ".")
            let none = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + "."
            #expect(try await gateway.http("GET", "/auth/v1/user", token: none).status == 403)
            // Claims changed after signing.
            var elevated = claims
            elevated["role"] = "service_role"
            let tampered = parts[0] + "." + JWT.sign(claims: elevated, secret: [1]).split(separator: ".")[1] + "." + parts[2]
            #expect(try await gateway.http("GET", "/auth/v1/user", token: String(tampered)).status == 403)
            // The anon key is no user.
            #expect(try await gateway.http("GET", "/auth/v1/user", token: gateway.anonKey).status == 403)
            // Expired: an hour and a minute later.
            gateway.clock.advance(3660)
            let expired = try await gateway.http("GET", "/auth/v1/user", token: ivy.accessToken)
            #expect(expired.status == 403)
            #expect(((expired.json as? [String: Any])?["msg"] as? String)?.contains("expired") == true)
            // Keys.
            #expect(try await gateway.http("GET", "/auth/v1/settings", apikey: "").status == 401)
            #expect(try await gateway.http("GET", "/auth/v1/settings", apikey: "sb_made_up_key").status == 401)
        }
    }
}

extension String {
    /// A JWT segment's JSON object.
    func base64URLDecodedJSON() -> [String: Any]? {
        var text = replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}
