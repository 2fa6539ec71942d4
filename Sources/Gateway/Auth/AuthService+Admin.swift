import Foundation
import Postgres

/// `/auth/v1/admin`, for the service role key only: users listed by page, made,
/// read, changed and deleted (soft or hard), their second factors listed and
/// removed, and the links a mail would carry.
extension AuthService {
    func admin(_ request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        do { try serviceCaller(request) } catch { return error.response }
        let parts = path.map(String.init)
        switch (request.method, parts.first ?? "", parts.count) {
        case (.get, "users", 1):
            return await listPage(request, path: "/admin/users", key: "users") { page, perPage in
                "select auth.gateway_admin_list_users(\(page), \(perPage))::text"
            }
        case (.post, "users", 1):
            guard let body = Self.body(request) else { return Self.badJSON }
            return await adminUser("select auth.gateway_admin_create_user(\(JSONText.serialize(body))::jsonb)::text")
        case (.get, "users", 3) where parts[2] == "factors", (.delete, "users", 4) where parts[2] == "factors":
            guard let id = UUID(uuidString: parts[1]) else {
                return Self.error(404, "user_not_found", "User not found: \(parts[1]) is not a user id")
            }
            if request.method == .get { return await adminUser("select auth.gateway_admin_list_factors(\(id))::text") }
            guard let factor = UUID(uuidString: parts[3]) else {
                return Self.error(404, "mfa_factor_not_found", "Factor not found: \(parts[3]) is not a factor id")
            }
            return await adminUser("select auth.gateway_admin_delete_factor(\(id), \(factor))::text")
        case (_, "users", 2):
            guard let id = UUID(uuidString: parts[1]) else {
                return Self.error(404, "user_not_found", "User not found: \(parts[1]) is not a user id")
            }
            switch request.method {
            case .get:
                return await adminUser("select auth.gateway_admin_get_user(\(id))::text")
            case .put:
                guard let body = Self.body(request) else { return Self.badJSON }
                return await adminUser("select auth.gateway_admin_update_user(\(id), \(JSONText.serialize(body))::jsonb)::text")
            case .delete:
                guard let body = Self.body(request) else { return Self.badJSON }
                let soft = body["should_soft_delete"] as? Bool ?? false
                return await adminUser("select auth.gateway_admin_delete_user(\(id), \(soft))::text")
            default:
                return Self.error(405, "method_not_allowed", "\(request.method.rawValue) is not allowed on a user")
            }
        case (.post, "generate_link", 1):
            return await generateLink(request)
        case (_, "oauth", 2...) where parts[1] == "clients":
            return await oauthClients(request, parts: Array(parts.dropFirst()))
        default:
            return Self.error(404, "not_found",
                              "Summit serves /auth/v1/admin/users, /admin/users/{id}, /admin/users/{id}/factors, /admin/generate_link "
                              + "and /admin/oauth/clients")
        }
    }

    /// The refusal unless the bearer is the service role key, or a token signed with the
    /// project's keys in an admin role (GoTrue's `JWT_ADMIN_ROLES`: service_role and supabase_admin).
    func serviceCaller(_ request: HTTPRequest) throws(Refusal) {
        guard let bearer = request.bearerToken, let caller = try? context.credentials.verify(bearer, now: context.clock(), admin: true),
              ["service_role", "supabase_admin"].contains(caller.role) else {
            throw Refusal(Self.error(403, "not_admin", "User not allowed: the admin API takes the service role key as bearer"))
        }
    }

    /// Runs an admin function and answers what it returns.
    func adminUser(_ query: PostgresQuery, status: Int = 200) async -> HTTPResponse {
        do {
            return .json(status, try await context.queryAsService(query).scalar(String.self))
        } catch {
            return Self.failure(error)
        }
    }

    /// A page of a list (`{total, <key>: […]}` from `query(page, perPage)`), with the
    /// platform's `X-Total-Count` and `Link` headers.
    func listPage(_ request: HTTPRequest, path: String, key: String,
                  query listQuery: (Int, Int) -> PostgresQuery) async -> HTTPResponse {
        let query = Dictionary((request.queryItems ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        // Empty values (the clients send `page=&per_page=`) are the defaults.
        func value(_ name: String, _ fallback: String) -> String { query[name].flatMap { $0.isEmpty ? nil : $0 } ?? fallback }
        guard let page = Int(value("page", "1")), page >= 1, page <= 1_000_000,
              let perPage = Int(value("per_page", "50")), (1...1000).contains(perPage) else {
            return Self.error(400, "validation_failed", "page must be 1 or more and per_page from 1 to 1000")
        }
        do {
            let text = try await context.queryAsService(listQuery(page, perPage)).scalar(String.self)
            let list = JSONText.parse(text) as? [String: Any] ?? [:]
            let total = list["total"] as? Int ?? 0
            var headers = HTTPHeaders()
            headers.set("x-total-count", String(total))
            let last = max(1, (total + perPage - 1) / perPage)
            var links = ["<\(path)?page=\(last)&per_page=\(perPage)>; rel=\"last\""]
            if page < last { links.insert("<\(path)?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"", at: 0) }
            headers.set("link", links.joined(separator: ", "))
            return .json(200, object: [key: list[key] ?? [], "aud": "authenticated"], headers: headers)
        } catch {
            return Self.failure(error)
        }
    }

    /// POST /admin/generate_link: the user, with the link and code a mail would carry, not sent.
    private func generateLink(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = Self.body(request) else { return Self.badJSON }
        guard let type = body["type"] as? String, let email = body["email"] as? String else {
            return Self.error(400, "validation_failed", "generate_link requires a type and an email")
        }
        let data = Self.metadata(body)
        do {
            let text = try await context.queryAsService("""
                select auth.gateway_admin_generate_link(\(type), \(email), \(body["password"] as? String), \(data)::jsonb,
                  \(body["new_email"] as? String), \(settings.codeLifetime))::text
                """).scalar(String.self)
            let result = JSONText.parse(text) as? [String: Any] ?? [:]
            guard let code = AuthMailer.Code(result["mail"]), var user = result["user"] as? [String: Any] else {
                return Self.error(500, "unexpected_failure", "generate_link answered without a code")
            }
            let redirect = allowedRedirect(Self.redirectTo(request, body))
            user["action_link"] = mailer.link(for: code, apiURL: apiURL(request), redirect: redirect)
            user["email_otp"] = code.code
            user["hashed_token"] = code.tokenHash
            user["redirect_to"] = redirect
            user["verification_type"] = result["verification_type"] ?? type
            return .json(200, object: user)
        } catch {
            return Self.failure(error)
        }
    }
}
