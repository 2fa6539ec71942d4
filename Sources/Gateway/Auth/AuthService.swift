import Foundation
import Postgres

/// `/auth/v1`: the hosted platform's auth API — sign-up (email and password, or
/// anonymous), the password, refresh-token and PKCE grants, mailed codes and links
/// (confirmation, magic link, recovery, email change, reauthentication), Sign in
/// with Apple and Google (`grant_type=id_token`), the
/// current user and its updates, sign-out, and the admin API — answering in its
/// shapes and with its error codes, so its client libraries work unchanged.
struct AuthService: Sendable {
    let context: GatewayContext
    let mailer: AuthMailer
    let limiter: AuthRateLimiter
    let keySets: ProviderKeySets

    init(context: GatewayContext) {
        self.context = context
        mailer = AuthMailer(settings: context.configuration.auth)
        limiter = AuthRateLimiter(context: context)
        keySets = ProviderKeySets(clock: context.clock)
    }

    var settings: AuthSettings { context.configuration.auth }

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        // Every call carries a project key, as through the hosted platform's API gateway, but the
        // link in a mail: a browser opens it, with no key.
        if request.method == .get && path.first == ".well-known" && path.dropFirst().first == "jwks.json" {
            // Public, as the platform's: verifiers fetch it with no key and may keep it ten minutes.
            return .json(200, object: context.credentials.keys.keySet, headers: ["Cache-Control": "public, max-age=600"])
        }
        if Self.isOAuthServerPublic(request, path) {
            return await oauthServer(request, path: path)
        }
        if !(request.method == .get && path.first == "verify") {
            do {
                _ = try context.credentials.key(request.headers["apikey"])
            } catch {
                return Self.error(401, "no_authorization", error.message)
            }
        }
        switch (request.method, path.first.map(String.init) ?? "") {
        case (.post, "signup"):
            return await signUp(request)
        case (.post, "token"):
            return await token(request)
        case (.get, "user"):
            return await user(request)
        case (.put, "user"):
            return await updateUser(request)
        case (.get, "reauthenticate"):
            return await reauthenticate(request)
        case (.post, "logout"):
            return await logout(request)
        case (.post, "recover"):
            return await recover(request)
        case (.post, "otp"), (.post, "magiclink"):
            return await otp(request)
        case (.post, "resend"):
            return await resend(request)
        case (.post, "verify"):
            return await verify(request)
        case (.get, "verify"):
            return await verifyLink(request)
        case (.post, "invite"):
            return await invite(request)
        case (_, "admin"):
            return await admin(request, path: path.dropFirst())
        case (_, "factors"):
            return await factors(request, path: path)
        case (_, "oauth"):
            return await oauthServer(request, path: path)
        case (.get, "settings"):
            return .json(200, object: [
                "external": ["email": true, "phone": false, "anonymous_users": settings.anonymousSignIns,
                             "apple": settings.identityProviders["apple"] != nil,
                             "google": settings.identityProviders["google"] != nil],
                "disable_signup": !settings.signUps, "mailer_autoconfirm": settings.autoconfirm, "phone_autoconfirm": false,
                "sms_provider": "", "saml_enabled": false,
            ] as [String: Any])
        case (.post, "sso"):
            return Self.error(404, "saml_provider_disabled", "SAML 2.0 is disabled")
        case (.get, "health"):
            return .json(200, object: ["name": "summit-auth", "description": "Summit's auth service"])
        case (_, "signup"), (_, "token"), (_, "user"), (_, "logout"), (_, "recover"), (_, "otp"), (_, "resend"),
             (_, "verify"), (_, "invite"), (_, "reauthenticate"):
            return Self.error(405, "method_not_allowed", "\(request.method.rawValue) is not allowed here")
        default:
            return Self.error(404, "not_found",
                              "Summit serves /auth/v1/signup, /token, /user, /logout, /recover, /otp, /resend, /verify, "
                              + "/reauthenticate, /factors, /invite, /admin/users, /admin/oauth/clients, /oauth/authorize, /oauth/token "
                              + "and /.well-known/jwks.json")
        }
    }

    // MARK: - Endpoints

    private func signUp(_ request: HTTPRequest) async -> HTTPResponse {
        if let limited = await limiter.admit(.signIn, request) { return limited }
        guard let body = Self.body(request) else { return Self.badJSON }
        guard settings.signUps else { return Self.error(422, "signup_disabled", "Signups not allowed for this instance") }
        let data = Self.metadata(body)
        if body["email"] == nil && body["password"] == nil && body["phone"] == nil {
            guard settings.anonymousSignIns else {
                return Self.error(422, "anonymous_provider_disabled", "Anonymous sign-ins are disabled")
            }
            return await session(from: "select auth.gateway_sign_up_anonymous(\(data)::jsonb)::text")
        }
        guard let email = body["email"] as? String else {
            if body["phone"] != nil { return Self.error(422, "phone_provider_disabled", "Summit signs up by email only") }
            return Self.error(400, "validation_failed", "Signup requires a valid email and password")
        }
        guard let password = body["password"] as? String else {
            return Self.error(400, "validation_failed", "Signup requires a valid email and password")
        }
        guard settings.autoconfirm else {
            // The user alone, no session, until the mailed confirmation comes back.
            let (challenge, method) = Self.challenge(body)
            return await mailing("""
                select auth.gateway_sign_up_unconfirmed(\(email), \(password), \(data)::jsonb, \(challenge), \(method),
                                                        \(settings.mailInterval), \(settings.codeLifetime))::text
                """, request, body, answer: { $0["user"] ?? [:] })
        }
        return await session(from: "select auth.gateway_sign_up(\(email), \(password), \(data)::jsonb)::text")
    }

    private func token(_ request: HTTPRequest) async -> HTTPResponse {
        let grant = request.queryItems?.first { $0.name == "grant_type" }?.value
        guard let body = Self.body(request) else { return Self.badJSON }
        switch grant {
        case "password":
            // No account has a phone number here: a phone sign-in is wrong credentials, as the platform says of an unknown one.
            if body["phone"] is String, body["email"] == nil, body["password"] is String {
                if let limited = await limiter.admit(.signIn, request) { return limited }
                return Self.error(400, "invalid_credentials", "Invalid login credentials")
            }
            guard let email = body["email"] as? String, let password = body["password"] as? String else {
                return Self.error(400, "validation_failed", "grant_type=password needs email and password")
            }
            switch await passwordSignIn(email: email, password: password, request) {
            case .session(let session): return .json(200, object: session)
            case .refused(let response): return response
            }
        case "refresh_token":
            guard let token = body["refresh_token"] as? String, !token.isEmpty, token.utf8.count <= 256 else {
                return Self.error(400, "validation_failed", "grant_type=refresh_token needs refresh_token")
            }
            if let limited = await limiter.admit(.refresh, request) { return limited }
            return await session(from: "select auth.gateway_refresh_grant(\(token))::text")
        case "pkce":
            guard let code = body["auth_code"] as? String, let verifier = body["code_verifier"] as? String,
                  code.utf8.count <= 256, verifier.utf8.count <= 256 else {
                return Self.error(400, "validation_failed", "grant_type=pkce needs auth_code and code_verifier")
            }
            if let limited = await limiter.admit(.verify, request) { return limited }
            return await session(from: "select auth.gateway_pkce_grant(\(code), \(verifier))::text")
        case "id_token":
            if let limited = await limiter.admit(.signIn, request) { return limited }
            return await idTokenGrant(body)
        default:
            return Self.error(400, "unsupported_grant_type",
                              "grant_type must be password, refresh_token, pkce or id_token, not \(grant ?? "missing")")
        }
    }

    private func logout(_ request: HTTPRequest) async -> HTTPResponse {
        let caller: RequestCaller
        do { caller = try signedInCaller(request) } catch { return error.response }
        let scope = request.queryItems?.first { $0.name == "scope" }?.value ?? "global"
        do {
            _ = try await context.queryAsService(
                "select auth.gateway_sign_out(\(caller.userID!), \(caller.sessionID), \(scope))")
            return HTTPResponse(status: 204)
        } catch {
            return Self.failure(error)
        }
    }

    // MARK: - Sessions

    /// Runs a grant and answers with a session: access token, refresh token, user.
    /// `signedIn`: the grant runs for a signed-in caller (an MFA verification).
    func session(from query: PostgresQuery, signedIn: Bool = false) async -> HTTPResponse {
        do {
            switch try await grant(query) {
            case .session(let session): return .json(200, object: session)
            case .refused(let response): return response
            }
        } catch {
            return Self.failure(error, signedIn: signedIn)
        }
    }

    enum GrantOutcome {
        case session([String: Any])
        case refused(HTTPResponse)
    }

    /// A sign-in with a password, wherever it is asked for (`/token`, the moderation site):
    /// the limits per address and per account, the grant, and a refusal counted against the account.
    func passwordSignIn(email: String, password: String, _ request: HTTPRequest) async -> GrantOutcome {
        if let limited = await limiter.admit(.signIn, request) { return .refused(limited) }
        let account = AuthRateLimiter.accountKey(email)
        if let held = await limiter.holding(account) { return .refused(held) }
        var outcome: GrantOutcome
        do {
            outcome = try await grant("select auth.gateway_password_grant(\(email), \(password))::text")
        } catch {
            outcome = .refused(Self.failure(error))
        }
        if case .refused(let response) = outcome, response.status == 400 { await limiter.failed(account) }
        return outcome
    }

    /// Runs a grant; a session signed for the user it answers, or the refusal it answered with.
    func grant(_ query: PostgresQuery) async throws -> GrantOutcome {
        let text = try await context.queryAsService(query).scalar(String.self)
        guard let grant = JSONText.parse(text) as? [String: Any] else {
            return .refused(Self.error(500, "unexpected_failure", "the grant answered something unreadable"))
        }
        return signed(grant)
    }

    /// A grant's answer as a session with its access token signed.
    func signed(_ grant: [String: Any]) -> GrantOutcome {
        if let code = grant["error"] as? String {
            return .refused(Self.error(400, code, grant["hint"] as? String ?? code))
        }
        guard let user = grant["user"] as? [String: Any], let userID = user["id"] as? String,
              let sessionID = grant["session_id"] as? String, let refresh = grant["refresh_token"] as? String
        else {
            return .refused(Self.error(500, "unexpected_failure", "the grant answered without a session"))
        }
        // A new session may follow a sign-up or a change to the user: its first reads see them.
        context.noteWrite(by: UUID(uuidString: userID))
        let now = Int(context.clock().timeIntervalSince1970)
        let lifetime = context.configuration.accessTokenLifetime
        let anonymous = user["is_anonymous"] as? Bool ?? false
        var claims: [String: Any] = [
            "aud": "authenticated", "exp": now + lifetime, "iat": now, "iss": context.configuration.issuer,
            "sub": userID, "email": user["email"] ?? "", "phone": user["phone"] ?? "", "role": "authenticated",
            // A session's second factors (SQL's amr), before how it began.
            "session_id": sessionID, "aal": grant["aal"] as? String ?? "aal1",
            "amr": (grant["amr"] as? [[String: Any]] ?? []) + [["method": Self.amrMethod(grant["method"] as? String), "timestamp": now]],
            "app_metadata": user["app_metadata"] ?? [:], "user_metadata": user["user_metadata"] ?? [:],
            "is_anonymous": anonymous,
        ]
        // A session an OAuth client got names it, and what it may see of the user.
        if let client = grant["client_id"] as? String { claims["client_id"] = client }
        if let scope = grant["scope"] as? String { claims["scope"] = scope }
        let accessToken: String
        do {
            accessToken = try JWT.sign(claims: claims, keys: context.credentials.keys)
        } catch {
            return .refused(Self.error(500, "unexpected_failure", "the access token could not be signed: \(error)"))
        }
        var session: [String: Any] = [
            "access_token": accessToken, "token_type": "bearer", "expires_in": lifetime,
            "expires_at": now + lifetime, "refresh_token": refresh, "user": user,
        ]
        if let scope = claims["scope"] { session["scope"] = scope }
        return .session(session)
    }

    /// The `amr` method the platform names for how a session began.
    static func amrMethod(_ method: String?) -> String {
        switch method {
        case nil, "password": "password"
        case "magiclink", "confirmation": "otp"
        case "invite": "invite"
        case "recovery": "recovery"
        case "email_change": "email_change"
        case "anonymous": "anonymous"
        case let other?: other
        }
    }

    /// The bearer token's signed-in user, or the answer that says why there is none.
    func signedInCaller(_ request: HTTPRequest) throws(Refusal) -> RequestCaller {
        guard let bearer = request.bearerToken else {
            throw Refusal(Self.error(401, "no_authorization", "This endpoint requires a Bearer token of a signed-in user"))
        }
        let caller: RequestCaller
        do {
            caller = try context.credentials.verify(bearer, now: context.clock())
        } catch {
            throw Refusal(Self.error(403, "bad_jwt", error.message))
        }
        guard caller.role == "authenticated", caller.userID != nil else {
            throw Refusal(Self.error(403, "bad_jwt", "invalid claim: the token is an API key, not a signed-in user's"))
        }
        return caller
    }

    // MARK: - Bodies and errors in the auth service's shape

    static func body(_ request: HTTPRequest) -> [String: Any]? {
        if request.body.isEmpty { return [:] }
        return JSONText.parse(request.body) as? [String: Any]
    }

    /// The body's `data` (user metadata) as JSON text; absent or null is an empty object.
    static func metadata(_ body: [String: Any]) -> String {
        guard let data = body["data"], !(data is NSNull) else { return "{}" }
        return JSONText.serialize(data)
    }

    static let badJSON = error(400, "bad_json", "Could not parse request body as JSON object")

    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        var body: [String: Any] = ["code": status, "error_code": code, "msg": message]
        if code == "weak_password" { body["weak_password"] = ["reasons": ["length"]] }
        return .json(status, object: body)
    }

    /// A refusal raised by the SQL functions (P0001, the code as message, what to do as hint), or a failure.
    /// `signedIn`: the request came with a user's access token, whose ended session the platform
    /// answers 403 (a refresh token of one is a 400, as every refused grant).
    static func failure(_ error: any Error, signedIn: Bool = false) -> HTTPResponse {
        guard let error = error as? PostgresError, error.code == "P0001" else {
            if (error as? PostgresError)?.isServerUnavailable == true {
                // A restart or a failover: the clients retry a 503 by themselves, when told.
                var response = Self.error(503, "unexpected_failure", "the auth service could not reach its database (it may be failing over); retry shortly")
                response.headers.set("retry-after", "1")
                return response
            }
            return Self.error(500, "unexpected_failure", "the auth service failed unexpectedly (\(error)): try again, "
                              + "and if it happens again tell the operator what you asked for")
        }
        let status: Int
        switch error.message {
        case "weak_password", "user_already_exists", "email_exists", "same_password", "otp_disabled", "flow_state_expired",
             "signup_disabled",
             "mfa_verification_failed", "mfa_challenge_expired", "mfa_factor_name_conflict", "too_many_enrolled_mfa_factors":
            status = 422
        case "insufficient_aal":
            status = 403
        case "mfa_factor_not_found":
            status = 404
        case "otp_expired", "bad_code_verifier":
            status = 403
        case "session_not_found":
            status = signedIn ? 403 : 400
        case "flow_state_not_found", "user_not_found", "oauth_client_not_found", "oauth_authorization_not_found":
            status = 404
        case "over_email_send_rate_limit":
            status = 429
        default:
            status = 400
        }
        return Self.error(status, error.message, error.hint ?? error.message)
    }
}
