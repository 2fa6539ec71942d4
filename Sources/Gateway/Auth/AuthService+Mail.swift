import CurlClient
import Foundation
import Mail
import Postgres

/// The flows that mail a code and a link, and their verification: recovery,
/// magic links and email codes, resending, verification by code or by link, and
/// invitations. A request that began a PKCE flow (`code_challenge`) gets, from
/// its link, an auth code for `grant_type=pkce` instead of tokens in the URL.
extension AuthService {
    func recover(_ request: HTTPRequest) async -> HTTPResponse {
        if let limited = await limiter.admit(.mail, request) { return limited }
        guard let body = Self.body(request) else { return Self.badJSON }
        guard let email = body["email"] as? String else {
            return Self.error(400, "validation_failed", "Password recovery requires an email")
        }
        let (challenge, method) = Self.challenge(body)
        return await mailing("""
            select auth.gateway_recover(\(email), \(challenge), \(method), \(settings.mailInterval), \(settings.codeLifetime))::text
            """, request, body)
    }

    func otp(_ request: HTTPRequest) async -> HTTPResponse {
        if let limited = await limiter.admit(.mail, request) { return limited }
        guard let body = Self.body(request) else { return Self.badJSON }
        guard let email = body["email"] as? String else {
            if body["phone"] != nil { return Self.error(422, "phone_provider_disabled", "Summit sends codes by email only") }
            return Self.error(400, "validation_failed", "An email address is required")
        }
        let create = (body["create_user"] as? Bool ?? true) && settings.signUps
        let data = Self.metadata(body)
        let (challenge, method) = Self.challenge(body)
        return await mailing("""
            select auth.gateway_otp(\(email), \(create), \(data)::jsonb, \(challenge), \(method),
                                    \(settings.mailInterval), \(settings.codeLifetime))::text
            """, request, body)
    }

    func resend(_ request: HTTPRequest) async -> HTTPResponse {
        if let limited = await limiter.admit(.mail, request) { return limited }
        guard let body = Self.body(request) else { return Self.badJSON }
        // No account has a phone number here: the platform answers an unknown number with nothing sent.
        if ["sms", "phone_change"].contains(body["type"] as? String ?? ""), body["phone"] is String { return .json(200, object: [:]) }
        guard let type = body["type"] as? String, let email = body["email"] as? String else {
            return Self.error(400, "validation_failed", "Resend requires a type (signup or email_change) and an email")
        }
        let (challenge, method) = Self.challenge(body)
        return await mailing("""
            select auth.gateway_resend(\(type), \(email), \(challenge), \(method), \(settings.mailInterval), \(settings.codeLifetime))::text
            """, request, body)
    }

    /// POST /verify: a code with its address, or a token hash; answers a session.
    func verify(_ request: HTTPRequest) async -> HTTPResponse {
        if let limited = await limiter.admit(.verify, request) { return limited }
        guard let body = Self.body(request) else { return Self.badJSON }
        guard let type = body["type"] as? String else {
            return Self.error(400, "validation_failed", "Verify requires a verification type")
        }
        if let phone = body["phone"] as? String {
            // No account has a phone number here, so no code sent to one can be right.
            guard Self.isPhoneNumber(phone) else {
                return Self.error(400, "validation_failed", "Invalid phone number format (E.164 required)")
            }
            return Self.error(403, "otp_expired", "Token has expired or is invalid")
        }
        let email = body["email"] as? String, code = body["token"] as? String, hash = body["token_hash"] as? String
        let account = email.map(AuthRateLimiter.accountKey)
        if let account, let held = await limiter.holding(account) { return held }
        let answer = await session(from: "select auth.gateway_verify(\(type), \(email), \(code), \(hash), false)::text")
        if answer.status == 403, let account { await limiter.failed(account) }
        return answer
    }

    /// GET /verify?token=&type=&redirect_to=, the link in a mail: on to the redirect with
    /// the session in the fragment, or with `?code=` for a PKCE flow, or with the error.
    func verifyLink(_ request: HTTPRequest) async -> HTTPResponse {
        let query = Dictionary((request.queryItems ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let redirect = allowedRedirect(query["redirect_to"])
        if let limited = await limiter.admit(.verify, request) { return limited }
        guard let token = query["token"], let type = query["type"] else {
            return Self.error(400, "validation_failed", "Verify requires a token and a type")
        }
        do {
            let text = try await context.queryAsService(
                "select auth.gateway_verify(\(type), null, null, \(token), true)::text").scalar(String.self)
            let flow = JSONText.parse(text) as? [String: Any] ?? [:]
            if let code = flow["auth_code"] as? String {
                return Self.redirect(to: redirect, query: [("code", code)])
            }
            switch signed(flow) {
            case .session(let session):
                var fragment = [("access_token", session["access_token"]), ("expires_at", session["expires_at"]),
                                ("expires_in", session["expires_in"]), ("refresh_token", session["refresh_token"]),
                                ("token_type", "bearer"), ("type", type)].map { ($0.0, "\($0.1 ?? "")") }
                fragment.sort { $0.0 < $1.0 }
                return Self.redirect(to: redirect, fragment: fragment)
            case .refused(let response):
                return response
            }
        } catch let error as PostgresError where error.code == "P0001" {
            return Self.redirect(to: redirect, fragment: [("error", "access_denied"), ("error_code", error.message),
                                                          ("error_description", error.hint ?? error.message)])
        } catch {
            return Self.failure(error)
        }
    }

    /// POST /invite, for the service role: an account waiting for its owner, and the mail.
    func invite(_ request: HTTPRequest) async -> HTTPResponse {
        do { try serviceCaller(request) } catch { return error.response }
        guard let body = Self.body(request) else { return Self.badJSON }
        guard let email = body["email"] as? String else { return Self.error(400, "validation_failed", "An email is required") }
        let data = Self.metadata(body)
        return await mailing("""
            select auth.gateway_admin_invite(\(email), \(data)::jsonb, \(settings.mailInterval), \(settings.codeLifetime))::text
            """, request, body, answer: { $0["user"] ?? [:] })
    }

    // MARK: - Mail

    /// Runs a flow that may answer a code to mail, sends it, and answers `{}`
    /// (or what `answer` takes from the flow's result).
    func mailing(_ query: PostgresQuery, _ request: HTTPRequest, _ body: [String: Any],
                 answer: ([String: Any]) -> Any = { _ in [String: Any]() }) async -> HTTPResponse {
        let result: [String: Any]
        do {
            result = JSONText.parse(try await context.queryAsService(query).scalar(String.self)) as? [String: Any] ?? [:]
        } catch {
            return Self.failure(error)
        }
        if let response = await deliver(result["mail"], request, body) { return response }
        return .json(200, object: answer(result))
    }

    /// Sends a flow's code, if it made one; the failure answer when the mail server did not take it.
    func deliver(_ mail: Any?, _ request: HTTPRequest, _ body: [String: Any]) async -> HTTPResponse? {
        guard let code = AuthMailer.Code(mail) else { return nil }
        let redirect = allowedRedirect(Self.redirectTo(request, body))
        do {
            try await mailer.send(code, apiURL: apiURL(request), redirect: redirect)
            return nil
        } catch {
            FileHandle.standardError.write(Data("summit serve: \(error.description)\n".utf8))
            return Self.error(500, "unexpected_failure", "Error sending \(code.purpose) email: the server could not send mail; try again later")
        }
    }

    /// E.164 as the platform checks it: an optional leading +, then 2 to 15 digits, the first not 0.
    static func isPhoneNumber(_ text: String) -> Bool {
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        return (2...15).contains(digits.count) && digits.first != "0" && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `redirect_to` as the clients send it: in the query, or in the body.
    static func redirectTo(_ request: HTTPRequest, _ body: [String: Any]) -> String? {
        request.queryItems?.first { $0.name == "redirect_to" }?.value ?? body["redirect_to"] as? String
    }

    /// `redirect` when it leads to the site or an allowed prefix; else the site. A
    /// link must not lead a user's session to wherever its sender chose.
    func allowedRedirect(_ redirect: String?) -> String {
        guard let redirect, !redirect.isEmpty else { return settings.siteURL }
        let allowed = [settings.siteURL] + settings.redirectAllowList
        return allowed.contains { redirect.hasPrefix($0) } ? redirect : settings.siteURL
    }

    /// This gateway as the client reached it, for links.
    func apiURL(_ request: HTTPRequest) -> String { context.publicURL(request) }

    /// The PKCE challenge a request carries, if any.
    static func challenge(_ body: [String: Any]) -> (String?, String?) {
        (body["code_challenge"] as? String, body["code_challenge_method"] as? String)
    }

    static func redirect(to target: String, query: [(String, String)] = [], fragment: [(String, String)] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("location", location(target, query: query, fragment: fragment))
        return HTTPResponse(status: 303, headers: headers)
    }

    static func location(_ target: String, query: [(String, String)], fragment: [(String, String)] = []) -> String {
        var location = target
        if !query.isEmpty { location += (location.contains("?") ? "&" : "?") + FormEncoding.encoded(query) }
        if !fragment.isEmpty { location += "#" + FormEncoding.encoded(fragment) }
        return location
    }
}
