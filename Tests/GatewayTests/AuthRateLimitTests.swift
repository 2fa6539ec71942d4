import Foundation
import Gateway
import Testing

/// The per-address limits of `/auth/v1` over HTTP: the request after the limit is
/// 429 with `Retry-After`, whatever it carries; another client behind the same
/// local proxy has its own count; the account limit holds even the right password.
@Suite struct AuthRateLimitTests {
    @Test func theRequestAfterTheLimitIsRefusedAndSaysWhenToComeBack() async throws {
        try await withGateway(configure: {
            $0.auth.rateLimits.signIn = .init(count: 5, seconds: 120)
            $0.auth.rateLimits.refresh = .init(count: 2, seconds: 120)
        }) { gateway in
            let proxy = ["X-Forwarded-For": "203.0.113.7"]
            var statuses: [Int] = []
            for attempt in 0..<5 {
                let answer = try await gateway.http("POST", "/auth/v1/token?grant_type=password", headers: proxy,
                                                    json: ["email": "guess\(attempt)@example.test", "password": "nope nope"])
                statuses.append(answer.status)
            }
            #expect(statuses == Array(repeating: 400, count: 5), "five wrong sign-ins are each answered: \(statuses)")
            let sixth = try await gateway.http("POST", "/auth/v1/signup", headers: proxy,
                                               json: ["email": "new@example.test", "password": "correct horse"])
            #expect(sixth.status == 429 && (sixth.json as? [String: Any])?["error_code"] as? String == "over_request_rate_limit",
                    "sign-ups share the limit: \(sixth.text)")
            let wait = Int(sixth.headers["retry-after"] ?? "") ?? 0
            #expect((1...120).contains(wait), "Retry-After says how long: \(sixth.headers)")
            let users = try await gateway.sql { try await $0.query("select count(*) from auth.users").scalar(Int.self) }
            #expect(users == 0, "the refused sign-up wrote nothing")

            // Another client behind the same proxy is counted on its own.
            let neighbour = try await gateway.http("POST", "/auth/v1/signup", headers: ["X-Forwarded-For": "198.51.100.4"],
                                                   json: ["email": "neighbour@example.test", "password": "correct horse"])
            #expect(neighbour.status == 200, "\(neighbour.text)")

            // Refreshes have their own limit.
            let refresh = try #require((neighbour.json as? [String: Any])?["refresh_token"] as? String)
            var current = refresh
            for _ in 0..<2 {
                let answer = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", headers: proxy,
                                                    json: ["refresh_token": current])
                #expect(answer.status == 200, "\(answer.text)")
                current = (answer.json as? [String: Any])?["refresh_token"] as? String ?? ""
            }
            let third = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", headers: proxy,
                                               json: ["refresh_token": current])
            #expect(third.status == 429, "\(third.text)")
        }
    }
}
