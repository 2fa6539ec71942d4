import Foundation
import Postgres

/// `/admin`: the moderation site — the report queue, hiding and unhiding grids and
/// moments, suspending and lifting sharing, the moderation log, and a page per
/// published resort — as server-rendered HTML with a little script, for people in
/// `social.admins` only.
///
/// Security model (docs/admin-site.md):
/// - Sign-in is the gateway's own password check; a non-admin gets a refusal and no
///   session. The session is a signed, HttpOnly, SameSite=Strict cookie (Secure over
///   TLS) of bounded life, tied to the auth session its sign-in began: signing out, or
///   revoking that session, ends it. Every request re-checks the session and the row
///   in `social.admins`; nothing under `/admin` but the sign-in page and the static
///   files answers without them.
/// - GET never changes anything. Every change is a POST with the session's form token
///   and this site's own `Origin`.
/// - Every read and action is the admin's own RPC call (`social.admin_*`), run as
///   the admin, so the RPCs' checks apply and the moderation log names them.
/// - Every page carries a strict Content-Security-Policy (scripts and styles from this
///   site only, nothing inline), `nosniff`, no framing and `no-store`; everything users
///   wrote is escaped (`HTMLText`).
struct AdminSite: Sendable {
    let context: GatewayContext
    let auth: AuthService
    let storage: StorageService
    let resorts: AdminResortSource?
    let keys: AdminSessionKeys

    init(context: GatewayContext, auth: AuthService, storage: StorageService, resorts: AdminResortSource?) {
        self.context = context
        self.auth = auth
        self.storage = storage
        self.resorts = resorts
        keys = AdminSessionKeys(secret: context.credentials.secret)
    }

    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// A signed-in admin, checked for this request.
    struct Admin: Sendable {
        var caller: RequestCaller
        var userID: UUID
        var sessionID: UUID
        var username: String
        /// What this session's forms carry.
        var formToken: String
    }

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        var parts = path.map(String.init)
        while parts.last == "" { parts.removeLast() }
        var response = await route(request, parts)
        Self.secure(&response)
        return response
    }

    private func route(_ request: HTTPRequest, _ parts: [String]) async -> HTTPResponse {
        let method = request.method == .head ? .get : request.method
        switch (method, parts.first ?? "") {
        case (.get, "static") where parts.count == 2:
            return AdminAssets.response(parts[1])
        case (.get, "sign-in") where parts.count == 1:
            return await signInPage(request)
        case (.post, "sign-in") where parts.count == 1:
            return await signIn(request)
        default:
            break
        }
        do {
            guard let admin = try await signedIn(request) else {
                // A direct URL leads to the sign-in page, which comes back here after.
                if method == .get {
                    let next = Self.isSitePath(request.rawPath) ? String(request.rawPath) : "/admin/reports"
                    return Self.redirect("/admin/sign-in?next=" + URLQuery.percentEncode(next))
                }
                return Self.errorPage(401, "Sign in first", "This needs an admin's session: sign in at /admin/sign-in, then try again.")
            }
            if method == .post {
                let form = try checkedForm(request, admin: admin)
                return try await act(request, parts, form: form, admin: admin)
            }
            guard method == .get else {
                return Self.errorPage(405, "Not allowed", "The admin site answers GET for pages and POST for forms only.", admin: admin)
            }
            return try await show(request, parts, admin: admin)
        } catch {
            return error.response
        }
    }

    /// The pages (GET only: they change nothing).
    private func show(_ request: HTTPRequest, _ parts: [String], admin: Admin) async throws(Refusal) -> HTTPResponse {
        switch (parts.first ?? "", parts.count) {
        case ("", 0):
            return Self.redirect("/admin/reports")
        case ("reports", 1):
            return try await queuePage(request, admin: admin)
        case ("reports", 2):
            return try await reportPage(request, id: try Self.id(parts[1], "report"), admin: admin)
        case ("people", 2):
            return try await personPage(request, id: try Self.id(parts[1], "person"), admin: admin)
        case ("log", 1):
            return try await logPage(request, admin: admin)
        case ("resorts", 1):
            return try await resortListPage(admin: admin)
        case ("resorts", 2):
            return try await resortPage(parts[1], admin: admin)
        case ("resorts", 3) where parts[2] == "graph.svg":
            return try await resortGraph(parts[1], admin: admin)
        case ("pictures", _) where parts.count >= 3:
            return await picture(request, bucket: parts[1], name: parts.dropFirst(2).joined(separator: "/"), admin: admin)
        default:
            return Self.errorPage(404, "No such page", "The admin site has Reports, Log and Resorts: start from the menu above.", admin: admin)
        }
    }

    /// The forms (POST only, each checked for its token and origin before it gets here).
    private func act(_ request: HTTPRequest, _ parts: [String], form: AdminForm, admin: Admin) async throws(Refusal) -> HTTPResponse {
        switch (parts.first ?? "", parts.count, parts.last ?? "") {
        case ("sign-out", 1, _):
            return await signOut(request, admin: admin)
        case ("reports", 3, "dismiss"):
            return try await dismiss(report: try Self.id(parts[1], "report"), form: form, admin: admin)
        case ("grids", 3, "hide"), ("grids", 3, "unhide"), ("moments", 3, "hide"), ("moments", 3, "unhide"):
            return try await hide(parts[0] == "grids" ? .grid : .moment, try Self.id(parts[1], parts[0] == "grids" ? "grid" : "moment"),
                                  undo: parts[2] == "unhide", form: form, admin: admin)
        case ("people", 3, "suspend"), ("people", 3, "lift"):
            return try await suspend(person: try Self.id(parts[1], "person"), lift: parts[2] == "lift", form: form, admin: admin)
        default:
            return Self.errorPage(404, "No such action", "The admin site's forms hide, unhide, suspend, lift and dismiss: use the buttons on a page.",
                             admin: admin)
        }
    }

    // MARK: - Sessions

    /// The request's admin: a cookie that verifies and has not run out, its auth session
    /// still active, and its user still in `social.admins`. A database that cannot be
    /// reached is said as such, not taken for a signed-out visitor.
    func signedIn(_ request: HTTPRequest) async throws(Refusal) -> Admin? {
        guard let token = Self.cookie(AdminSessionKeys.sessionCookie, in: request),
              let caller = keys.caller(ofSessionToken: token, now: context.clock()),
              let user = caller.userID, let session = caller.sessionID else { return nil }
        // The gateway's own bookkeeping, as the auth service checks sessions: the admin's
        // statements themselves run as the admin. An admin without a profile is named by email.
        let rows: PostgresRows
        do {
            rows = try await context.queryAsService("""
                select coalesce(p.username, u.email, a.user_id::text) from social.admins a
                join auth.users u on u.id = a.user_id left join social.profiles p on p.id = a.user_id
                where a.user_id = \(user) and auth.gateway_session_active(\(session))
                """)
        } catch {
            throw Refusal(Self.errorPage(503, "Database not reachable",
                                         "The database is not reachable (a restart or a failover): try again in a moment. "
                                         + "A form you sent just now was not applied."))
        }
        guard let username = try? rows.first?.decode(String.self, at: 0) else { return nil }
        return Admin(caller: caller, userID: user, sessionID: session, username: username, formToken: keys.formToken(session: session))
    }

    /// The form of a POST, once it proved it came from this site's page: a form body,
    /// this site's `Origin`, and the session's form token.
    private func checkedForm(_ request: HTTPRequest, admin: Admin) throws(Refusal) -> AdminForm {
        try checkOrigin(request, admin: admin)
        guard let form = AdminForm(request) else {
            throw Refusal(Self.errorPage(400, "Not a form", "The admin site takes its own forms only (application/x-www-form-urlencoded).", admin: admin))
        }
        guard AdminSessionKeys.matches(form["csrf"], admin.formToken) else {
            throw Refusal(Self.errorPage(403, "Form refused", "This form did not come from your session's page: reload the page and try again.", admin: admin))
        }
        return form
    }

    func checkOrigin(_ request: HTTPRequest, admin: Admin?) throws(Refusal) {
        let expected = siteOrigin(request)
        guard let origin = request.headers["origin"], origin.lowercased() == expected.lowercased() else {
            throw Refusal(Self.errorPage(403, "Form refused",
                                    "The admin site takes forms sent from its own pages (\(expected)) only: open the page there and try again.",
                                    admin: admin))
        }
    }

    /// `scheme://host[:port]` of this site as the browser reached it.
    func siteOrigin(_ request: HTTPRequest) -> String {
        let url = context.publicURL(request)
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { return url }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// Whether the browser reached this site over TLS (directly, or through a proxy on this machine).
    func overTLS(_ request: HTTPRequest) -> Bool {
        context.publicURL(request).lowercased().hasPrefix("https://")
    }

    func setCookie(_ name: String, _ value: String, maxAge: Int, _ request: HTTPRequest) -> String {
        // Lax: a link to a report opened from mail lands signed in; every change is a POST
        // with the session's form token and this site's Origin, which Lax does not send across sites.
        "\(name)=\(value); Path=/admin; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (overTLS(request) ? "; Secure" : "")
    }

    static func cookie(_ name: String, in request: HTTPRequest) -> String? {
        for header in request.headers.values("cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    // MARK: - Answers

    /// The headers every answer under `/admin` carries; pages are never stored.
    static func secure(_ response: inout HTTPResponse) {
        response.headers.set("content-security-policy", contentSecurityPolicy)
        response.headers.set("x-content-type-options", "nosniff")
        response.headers.set("referrer-policy", "same-origin")
        response.headers.set("x-frame-options", "DENY")
        response.headers.set("cross-origin-opener-policy", "same-origin")
        if response.headers["cache-control"] == nil { response.headers.set("cache-control", "no-store") }
    }

    static func redirect(_ location: String, cookies: [String] = []) -> HTTPResponse {
        var response = HTTPResponse(status: 303, headers: ["location": location])
        for cookie in cookies { response.headers.add("set-cookie", cookie) }
        return response
    }

    /// A path on this site to come back to: `/admin/…`, letters, digits and `/-_.` only
    /// (never another host, never a scheme).
    static func isSitePath(_ path: Substring) -> Bool {
        path.hasPrefix("/admin/") && !path.contains("//") && !path.split(separator: "/").contains("..") && path.allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || "/-_.".contains($0))
        }
    }

    static func id(_ text: String, _ what: String) throws(Refusal) -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw Refusal(AdminSite.errorPage(404, "No such \(what)", "\(text) is not an id: follow a link from the queue or the log."))
        }
        return id
    }
}
