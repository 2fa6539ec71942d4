import Foundation
import Postgres

/// `/auth/v1` as an OAuth 2.1 authorization server (`SUMMIT_AUTH_OAUTH_SERVER`), in the
/// hosted platform's shapes: another application sends the user to `/oauth/authorize`,
/// which hands the request to the site's consent page; the page, signed in as the user,
/// reads it at `/oauth/authorizations/{id}` and approves or denies it at `…/consent`;
/// the application trades the code (PKCE S256 always) at `/oauth/token` for a session
/// of its own, whose access token names it in `client_id`.
///
/// The authorize, token, registration and metadata endpoints are the application's
/// and its browser's, which carry no project key; the consent endpoints are the site's.
extension AuthService {
    /// How long a request waits for the user's decision.
    static let authorizationLifetime = 600

    /// Whether the path is one of the server's keyless endpoints.
    static func isOAuthServerPublic(_ request: HTTPRequest, _ path: ArraySlice<Substring>) -> Bool {
        switch (request.method, Array(path.prefix(3))) {
        case (.get, [".well-known", "oauth-authorization-server"]), (.get, ["oauth", "authorize"]), (.post, ["oauth", "token"]),
             (.post, ["oauth", "clients", "register"]):
            true
        default:
            false
        }
    }

    func oauthServer(_ request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        guard settings.oauthServer else { return Self.oauthServerDisabled }
        let parts = path.map(String.init)
        switch (request.method, parts.count > 1 ? parts[1] : "", parts.count) {
        case (.get, "oauth-authorization-server", 2):
            return metadata(request)
        case (.get, "authorize", 2):
            return await authorize(request)
        case (.post, "token", 2):
            if let limited = await limiter.admit(.refresh, request) { return limited }
            return await oauthToken(request)
        case (.post, "clients", 3) where parts[2] == "register":
            guard settings.oauthDynamicRegistration else {
                return Self.oauthError(403, "access_denied",
                                       "Dynamic client registration is off; the operator registers clients (\(AuthSettings.Key.oauthDynamicRegistration))")
            }
            if let limited = await limiter.admit(.signIn, request) { return limited }
            return await register(request)
        case (.get, "authorizations", 3),
             (.post, "authorizations", 4) where parts[3] == "consent":
            guard let id = UUID(uuidString: parts[2]) else {
                return Self.error(404, "oauth_authorization_not_found", "Authorization not found: \(parts[2]) is not an authorization id")
            }
            return await consent(request, authorization: id, deciding: request.method == .post)
        default:
            return Self.error(404, "not_found",
                              "The OAuth server serves /auth/v1/oauth/authorize, /oauth/token, /oauth/authorizations/{id}, "
                              + "/oauth/authorizations/{id}/consent, /oauth/clients/register and /.well-known/oauth-authorization-server")
        }
    }

    static let oauthServerDisabled = error(404, "oauth_server_disabled",
                                           "The OAuth 2.1 server is off; set \(AuthSettings.Key.oauthServer)=true to serve other applications")

    // MARK: - The application's endpoints

    /// RFC 8414: where everything is, for the application's OAuth library to discover.
    private func metadata(_ request: HTTPRequest) -> HTTPResponse {
        let base = apiURL(request) + "/auth/v1"
        var document: [String: Any] = [
            "issuer": base, "authorization_endpoint": base + "/oauth/authorize", "token_endpoint": base + "/oauth/token",
            "jwks_uri": base + "/.well-known/jwks.json", "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"], "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
            "scopes_supported": ["openid", "email", "profile", "phone"],
        ]
        if settings.oauthDynamicRegistration { document["registration_endpoint"] = base + "/oauth/clients/register" }
        return .json(200, object: document, headers: ["Cache-Control": "public, max-age=600"])
    }

    /// The browser arrives from the application: the request is kept and the user sent
    /// to the consent page; a bad client or redirect URI is told to the user, never redirected to.
    private func authorize(_ request: HTTPRequest) async -> HTTPResponse {
        guard let items = request.queryItems else { return Self.error(400, "validation_failed", "The query string is not valid UTF-8") }
        let query = Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        do {
            let text = try await context.queryAsService("""
                select auth.gateway_oauth_authorize(\(query["client_id"]), \(query["redirect_uri"]), \(query["response_type"]),
                  \(query["scope"]), \(query["state"]), \(query["code_challenge"]), \(query["code_challenge_method"]),
                  \(Self.authorizationLifetime))::text
                """).scalar(String.self)
            let answer = JSONText.parse(text) as? [String: Any] ?? [:]
            guard let id = answer["authorization_id"] as? String else { return Self.redirectBack(answer) }
            return Self.redirect(to: settings.consentPage, query: [("authorization_id", id)])
        } catch {
            return Self.failure(error)
        }
    }

    /// The code or the refusal, at the application's redirect URI.
    static func redirectBack(_ answer: [String: Any]) -> HTTPResponse {
        redirect(to: answer["redirect_uri"] as? String ?? "", query: redirectQuery(answer))
    }

    static func redirectQuery(_ answer: [String: Any]) -> [(String, String)] {
        ["code", "error", "error_description", "state"].compactMap { name in (answer[name] as? String).map { (name, $0) } }
    }

    /// RFC 6749 §3.2: the code and refresh grants, for a client that authenticates by
    /// Basic or by its secret in the body (or, public, by its id and the PKCE verifier).
    private func oauthToken(_ request: HTTPRequest) async -> HTTPResponse {
        guard let form = Self.form(request) else {
            return Self.oauthError(400, "invalid_request", "The body must be application/x-www-form-urlencoded (or a JSON object)")
        }
        let client: (id: String?, secret: String?)
        switch Self.basicCredentials(request) {
        case .none:
            client = (form["client_id"], form["client_secret"])
        case .some(let basic?):
            guard form["client_secret"] == nil, form["client_id"] == nil || form["client_id"] == basic.id else {
                return Self.oauthError(400, "invalid_request", "Authenticate the client one way: Basic or client_secret, not both")
            }
            client = (basic.id, basic.secret)
        case .some(.none):
            return Self.oauthError(401, "invalid_client", "The Authorization header is not Basic base64(client_id:client_secret)")
        }
        let query: PostgresQuery
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let verifier = form["code_verifier"], code.utf8.count <= 256, verifier.utf8.count <= 256 else {
                return Self.oauthError(400, "invalid_request", "grant_type=authorization_code needs code, code_verifier and redirect_uri")
            }
            query = "select auth.gateway_oauth_code_grant(\(client.id), \(client.secret), \(code), \(form["redirect_uri"]), \(verifier))::text"
        case "refresh_token":
            guard let token = form["refresh_token"], !token.isEmpty, token.utf8.count <= 256 else {
                return Self.oauthError(400, "invalid_request", "grant_type=refresh_token needs refresh_token")
            }
            query = "select auth.gateway_oauth_refresh_grant(\(client.id), \(client.secret), \(token))::text"
        case let other:
            return Self.oauthError(400, "unsupported_grant_type",
                                   "grant_type must be authorization_code or refresh_token, not \(other ?? "missing")")
        }
        let outcome: GrantOutcome
        do {
            outcome = try await grant(query)
        } catch {
            return Self.oauthFailure(error)
        }
        switch outcome {
        case .session(var session):
            if (session["refresh_token"] as? String)?.isEmpty == true { session["refresh_token"] = nil }
            return .json(200, object: session, headers: ["Cache-Control": "no-store", "Pragma": "no-cache"])
        case .refused(let response):
            // A refusal the grant answered (a code used twice): the RFC's shape, beside the platform's.
            let body = JSONText.parse(response.body) as? [String: Any] ?? [:]
            let code = body["error_code"] as? String ?? "invalid_grant"
            return Self.oauthError(response.status, code == "unexpected_failure" ? "server_error" : "invalid_grant", body["msg"] as? String ?? code)
        }
    }

    /// RFC 7591: an application registers itself; answered with its id and, confidential, its secret.
    private func register(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = Self.body(request) else { return Self.oauthError(400, "invalid_client_metadata", "The body must be a JSON object") }
        let attributes = body.filter { ["client_name", "redirect_uris", "grant_types", "response_types", "client_uri", "logo_uri",
                                        "scope", "token_endpoint_auth_method"].contains($0.key) }
        do {
            let text = try await context.queryAsService(
                "select auth.gateway_oauth_create_client(\(JSONText.serialize(attributes))::jsonb, 'dynamic')::text").scalar(String.self)
            var client = JSONText.parse(text) as? [String: Any] ?? [:]
            client["client_id_issued_at"] = Int(context.clock().timeIntervalSince1970)
            if client["client_secret"] != nil { client["client_secret_expires_at"] = 0 }
            return .json(201, object: client, headers: ["Cache-Control": "no-store"])
        } catch let error as PostgresError where error.code == "P0001" {
            let hint = error.hint ?? error.message
            return Self.oauthError(400, hint.hasPrefix("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata", hint)
        } catch {
            return Self.failure(error)
        }
    }

    // MARK: - The consent page's endpoints

    /// The request as the consent page shows it (binding it to the signed-in user), or
    /// the user's decision; answered as `redirect_url` once decided.
    private func consent(_ request: HTTPRequest, authorization: UUID, deciding: Bool) async -> HTTPResponse {
        let caller: RequestCaller
        do { caller = try signedInCaller(request) } catch { return error.response }
        let query: PostgresQuery
        if deciding {
            guard let body = Self.body(request) else { return Self.badJSON }
            query = "select auth.gateway_oauth_consent(\(authorization), \(caller.userID!), \(body["action"] as? String))::text"
        } else {
            query = "select auth.gateway_oauth_authorization(\(authorization), \(caller.userID!))::text"
        }
        do {
            let answer = JSONText.parse(try await context.queryAsService(query).scalar(String.self)) as? [String: Any] ?? [:]
            if answer["authorization_id"] != nil { return .json(200, object: answer) }
            return .json(200, object: ["redirect_url": Self.location(answer["redirect_uri"] as? String ?? "", query: Self.redirectQuery(answer))])
        } catch {
            return Self.failure(error, signedIn: true)
        }
    }

    // MARK: - The admin API's client registry

    func oauthClients(_ request: HTTPRequest, parts: [String]) async -> HTTPResponse {
        guard settings.oauthServer else { return Self.oauthServerDisabled }
        if parts.count == 1 {
            switch request.method {
            case .get:
                return await listPage(request, path: "/admin/oauth/clients", key: "clients") { page, perPage in
                    "select auth.gateway_oauth_list_clients(\(page), \(perPage))::text"
                }
            case .post:
                guard let body = Self.body(request) else { return Self.badJSON }
                return await adminUser("select auth.gateway_oauth_create_client(\(JSONText.serialize(body))::jsonb, 'manual')::text",
                                       status: 201)
            default:
                return Self.error(405, "method_not_allowed", "\(request.method.rawValue) is not allowed on the client list")
            }
        }
        guard let id = UUID(uuidString: parts[1]) else {
            return Self.error(404, "oauth_client_not_found", "OAuth client not found: \(parts[1]) is not a client id")
        }
        switch (request.method, parts.count) {
        case (.get, 2):
            return await adminUser("select auth.gateway_oauth_get_client(\(id))::text")
        case (.put, 2):
            guard let body = Self.body(request) else { return Self.badJSON }
            return await adminUser("select auth.gateway_oauth_update_client(\(id), \(JSONText.serialize(body))::jsonb)::text")
        case (.delete, 2):
            do {
                _ = try await context.queryAsService("select auth.gateway_oauth_delete_client(\(id))")
                return HTTPResponse(status: 204)
            } catch {
                return Self.failure(error)
            }
        case (.post, 3) where parts[2] == "regenerate_secret":
            return await adminUser("select auth.gateway_oauth_regenerate_secret(\(id))::text")
        default:
            return Self.error(404, "not_found",
                              "Summit serves /admin/oauth/clients, /admin/oauth/clients/{id} and /admin/oauth/clients/{id}/regenerate_secret")
        }
    }

    // MARK: - Bodies and errors in RFC 6749's shape

    /// A token request's fields: form-encoded as the RFC has it, or a JSON object of strings.
    static func form(_ request: HTTPRequest) -> [String: String]? {
        let type = request.headers["content-type"]?.lowercased() ?? ""
        if type.hasPrefix("application/json") {
            guard let body = body(request) else { return nil }
            return body.compactMapValues { $0 as? String }
        }
        guard let text = String(validating: request.body, as: UTF8.self), let items = URLQuery.parse(Substring(text)) else { return nil }
        return Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// `Authorization: Basic` as RFC 6749 §2.3.1 has it (each half form-encoded): nil when
    /// absent, `.some(nil)` when it is there but unreadable.
    static func basicCredentials(_ request: HTTPRequest) -> (id: String, secret: String)?? {
        guard let value = request.headers["authorization"] else { return .none }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return .none }
        guard let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":"),
              let id = URLQuery.percentDecode(text[..<colon], plusAsSpace: true),
              let secret = URLQuery.percentDecode(text[text.index(after: colon)...], plusAsSpace: true) else {
            return .some(nil)
        }
        return .some((id, secret))
    }

    /// RFC 6749 §5.2's `error` and `error_description`, with the platform's fields beside them.
    static func oauthError(_ status: Int, _ code: String, _ description: String) -> HTTPResponse {
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        if status == 401 { headers.set("WWW-Authenticate", "Basic realm=\"summit\"") }
        return .json(status, object: ["error": code, "error_description": description, "code": status, "error_code": code, "msg": description],
                     headers: headers)
    }

    /// A refusal from the token grants as the RFC names it: the client's fault, or the grant's.
    static func oauthFailure(_ error: any Error) -> HTTPResponse {
        guard let error = error as? PostgresError, error.code == "P0001" else {
            return oauthError(500, "server_error", "the auth service could not reach its database; try again")
        }
        let hint = error.hint ?? error.message
        switch error.message {
        case "invalid_client": return oauthError(401, "invalid_client", hint)
        case "unauthorized_client", "invalid_request": return oauthError(400, error.message, hint)
        default: return oauthError(400, "invalid_grant", hint)
        }
    }
}
