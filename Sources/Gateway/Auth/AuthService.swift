import Foundation
import Postgres

/// `/auth/v1`: the hosted platform's auth API for email and password — sign-up,
/// the password and refresh-token grants, the current user, sign-out — answering
/// in its shapes and with its error codes, so its client libraries work unchanged.
struct AuthService: Sendable {
    let context: GatewayContext

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        // Every call carries a project key, as through the hosted platform's API gateway.
        do {
            _ = try context.credentials.key(request.headers["apikey"])
        } catch {
            return Self.error(401, "no_authorization", error.message)
        }
        switch (request.method, path.first.map(String.init) ?? "") {
        case (.post, "signup"):
            return await signUp(request)
        case (.post, "token"):
            return await token(request)
        case (.get, "user"):
            return await user(request)
        case (.post, "logout"):
            return await logout(request)
        case (.get, "settings"):
            return .json(200, object: [
                "external": ["email": true, "phone": false],
                "disable_signup": false, "mailer_autoconfirm": true, "phone_autoconfirm": false,
                "sms_provider": "", "saml_enabled": false,
            ] as [String: Any])
        case (.get, "health"):
            return .json(200, object: ["name": "summit-auth", "description": "Summit's email and password auth"])
        case (_, "signup"), (_, "token"), (_, "user"), (_, "logout"):
            return Self.error(405, "method_not_allowed", "\(request.method.rawValue) is not allowed here")
        default:
            return Self.error(404, "not_found",
                              "Summit serves /auth/v1/signup, /token, /user and /logout; email and password only")
        }
    }

    // MARK: - Endpoints

    private func signUp(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = JSONText.parse(request.body) as? [String: Any] else {
            return Self.error(400, "bad_json", "Could not parse request body as JSON object")
        }
        guard let email = body["email"] as? String else {
            if body["phone"] != nil { return Self.error(422, "phone_provider_disabled", "Summit signs up by email only") }
            return Self.error(400, "validation_failed", "Signup requires a valid email and password")
        }
        guard let password = body["password"] as? String else {
            return Self.error(400, "validation_failed", "Signup requires a valid email and password")
        }
        let data = body["data"].map { JSONText.serialize($0) } ?? "{}"
        return await session(from: "select auth.gateway_sign_up(\(email), \(password), \(data)::jsonb)::text")
    }

    private func token(_ request: HTTPRequest) async -> HTTPResponse {
        let grant = request.queryItems?.first { $0.name == "grant_type" }?.value
        guard let body = JSONText.parse(request.body) as? [String: Any] else {
            return Self.error(400, "bad_json", "Could not parse request body as JSON object")
        }
        switch grant {
        case "password":
            guard let email = body["email"] as? String, let password = body["password"] as? String else {
                return Self.error(400, "validation_failed", "grant_type=password needs email and password")
            }
            return await session(from: "select auth.gateway_password_grant(\(email), \(password))::text")
        case "refresh_token":
            guard let token = body["refresh_token"] as? String, !token.isEmpty, token.utf8.count <= 256 else {
                return Self.error(400, "validation_failed", "grant_type=refresh_token needs refresh_token")
            }
            return await session(from: "select auth.gateway_refresh_grant(\(token))::text")
        default:
            return Self.error(400, "unsupported_grant_type",
                              "grant_type must be password or refresh_token, not \(grant ?? "missing")")
        }
    }

    private func user(_ request: HTTPRequest) async -> HTTPResponse {
        let caller: RequestCaller
        do { caller = try signedInCaller(request) } catch { return error.response }
        do {
            let rows = try await context.queryAsService("select auth.gateway_user_json(\(caller.userID!))::text")
            guard let json = try rows.first.flatMap({ row in row.isNull(at: 0) ? nil : try row.decode(String.self, at: 0) }) else {
                return Self.error(404, "user_not_found", "User from sub claim in JWT does not exist")
            }
            return .json(200, json)
        } catch {
            return Self.failure(error)
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
    private func session(from query: PostgresQuery) async -> HTTPResponse {
        do {
            let text = try await context.queryAsService(query).scalar(String.self)
            guard let grant = JSONText.parse(text) as? [String: Any] else {
                return Self.error(500, "unexpected_failure", "the grant answered something unreadable")
            }
            if let code = grant["error"] as? String {
                return Self.error(400, code, grant["hint"] as? String ?? code)
            }
            guard let user = grant["user"] as? [String: Any], let userID = user["id"] as? String,
                  let sessionID = grant["session_id"] as? String, let refresh = grant["refresh_token"] as? String
            else {
                return Self.error(500, "unexpected_failure", "the grant answered without a session")
            }
            let now = Int(context.clock().timeIntervalSince1970)
            let lifetime = context.configuration.accessTokenLifetime
            let claims: [String: Any] = [
                "aud": "authenticated", "exp": now + lifetime, "iat": now, "iss": context.configuration.issuer,
                "sub": userID, "email": user["email"] ?? "", "phone": user["phone"] ?? "", "role": "authenticated",
                "session_id": sessionID, "aal": "aal1", "amr": [["method": "password", "timestamp": now]],
                "app_metadata": user["app_metadata"] ?? [:], "user_metadata": user["user_metadata"] ?? [:],
                "is_anonymous": false,
            ]
            let accessToken = JWT.sign(claims: claims, secret: context.configuration.jwtSecret)
            return .json(200, object: [
                "access_token": accessToken, "token_type": "bearer", "expires_in": lifetime,
                "expires_at": now + lifetime, "refresh_token": refresh, "user": user,
            ] as [String: Any])
        } catch {
            return Self.failure(error)
        }
    }

    /// The bearer token's signed-in user, or the answer that says why there is none.
    private func signedInCaller(_ request: HTTPRequest) throws(Refusal) -> RequestCaller {
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

    // MARK: - Errors in the auth service's shape

    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        var body: [String: Any] = ["code": status, "error_code": code, "msg": message]
        if code == "weak_password" { body["weak_password"] = ["reasons": ["length"]] }
        return .json(status, object: body)
    }

    /// A refusal raised by the SQL functions (P0001, the code as message, what to do as hint), or a failure.
    static func failure(_ error: any Error) -> HTTPResponse {
        guard let error = error as? PostgresError, error.code == "P0001" else {
            return Self.error(500, "unexpected_failure", "the auth service could not reach its database; try again")
        }
        let status: Int
        switch error.message {
        case "weak_password", "user_already_exists": status = 422
        default: status = 400
        }
        return Self.error(status, error.message, error.hint ?? error.message)
    }
}
