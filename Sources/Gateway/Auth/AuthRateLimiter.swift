import Foundation
import Postgres

/// Rate limits of `/auth/v1`, per client address and per account, counted in
/// the database so every `summit serve` of one database shares them. Over a
/// limit, the answer is 429 with `Retry-After`, as the platform's.
struct AuthRateLimiter: Sendable {
    let context: GatewayContext

    enum Rule: String {
        case signIn = "sign_in", refresh, verify, mail
    }

    private var limits: AuthRateLimits { context.configuration.auth.rateLimits }

    /// Counts a request from the client's address; the refusal when that was one too many.
    func admit(_ rule: Rule, _ request: HTTPRequest) async -> HTTPResponse? {
        let limit: AuthRateLimits.Limit = switch rule {
        case .signIn: limits.signIn
        case .refresh: limits.refresh
        case .verify: limits.verify
        case .mail: limits.mail
        }
        return await count("\(rule.rawValue):ip:\(Self.clientAddress(request))", limit, hit: true)
    }

    /// The key of an account's failures (wrong passwords, wrong codes).
    static func accountKey(_ email: String) -> String {
        "failures:" + email.trimmingCharacters(in: .whitespaces).lowercased().prefix(300)
    }

    /// The refusal when the account has failed too often in this window: even the right
    /// password waits, or guessing would only have to be patient.
    func holding(_ account: String) async -> HTTPResponse? {
        await count(account, limits.accountFailures, hit: false)
    }

    func failed(_ account: String) async {
        _ = await count(account, limits.accountFailures, hit: true)
    }

    private func count(_ key: String, _ limit: AuthRateLimits.Limit, hit: Bool) async -> HTTPResponse? {
        let wait: Int
        do {
            wait = try await context.queryAsService(
                "select auth.gateway_rate_limit(\(key), \(limit.count), \(limit.seconds), \(hit))").scalar(Int.self)
        } catch {
            return AuthService.failure(error)
        }
        guard wait > 0 else { return nil }
        var response = AuthService.error(429, "over_request_rate_limit",
                                         "Request rate limit reached: try again in \(wait) seconds")
        response.headers.set("retry-after", String(wait))
        return response
    }

    /// The peer's address; behind a proxy on this machine (nginx in deploy/nginx), the
    /// address that proxy appended to X-Forwarded-For. A peer elsewhere cannot choose its key.
    static func clientAddress(_ request: HTTPRequest) -> String {
        let peer = peerAddress(request)
        if isLoopback(peer), let forwarded = request.headers["x-forwarded-for"],
           let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty,
           last.utf8.count <= 64 {
            return last
        }
        return peer
    }

    /// The peer's address without its port.
    static func peerAddress(_ request: HTTPRequest) -> String {
        var peer = request.remoteAddress
        if let colon = peer.lastIndex(of: ":") { peer = String(peer[..<colon]) }
        return peer.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "127.0.0.1" || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
