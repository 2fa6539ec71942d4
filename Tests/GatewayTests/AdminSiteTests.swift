import Foundation
@testable import Gateway
import Postgres
import Testing

/// The moderation site's security over real sockets: the headers on every answer,
/// nothing without an admin session, a non-admin's refusal, the form token and origin
/// checks, the session's end (sign-out, expiry, losing admin), escaping, and the RPCs
/// run as the admin. The browser suite (AdminSiteBrowserTests) walks the same site in
/// chromium.
@Suite(.ownThread) struct AdminSiteTests {
    static let password = "correct horse"

    /// A browser's worth of state against one gateway: cookies, and the site's origin.
    struct Visitor {
        let gateway: GatewayHarness
        var cookies: [String: String] = [:]
        var origin = "http://localhost"
        var headers: [String: String] = [:]

        mutating func get(_ path: String) async throws -> RawResponse {
            try await send("GET", path)
        }

        mutating func post(_ path: String, _ fields: [(String, String)], origin: String? = nil) async throws -> RawResponse {
            let body = fields.map { "\(URLQuery.percentEncode($0.0))=\(URLQuery.percentEncode($0.1))" }.joined(separator: "&")
            var extra = ["Content-Type": "application/x-www-form-urlencoded"]
            let sent = origin ?? self.origin
            if !sent.isEmpty { extra["Origin"] = sent }
            return try await send("POST", path, extra, Array(body.utf8))
        }

        mutating func send(_ method: String, _ path: String, _ extra: [String: String] = [:], _ body: [UInt8] = []) async throws -> RawResponse {
            var all = headers.merging(extra) { $1 }
            if !cookies.isEmpty { all["Cookie"] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            let response = try await gateway.http(method, path, apikey: "", headers: all, body: body)
            for (name, value) in response.fields where name == "set-cookie" {
                let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
                if value.contains("Max-Age=0") { cookies[pair[0]] = nil } else { cookies[pair[0]] = pair.count > 1 ? pair[1] : "" }
            }
            return response
        }

        /// The value of `name` in the page's first form that has it.
        static func field(_ name: String, in page: RawResponse) -> String? {
            let pattern = "name=\"\(name)\" value=\"([^\"]*)\""
            guard let range = page.text.range(of: pattern, options: .regularExpression) else { return nil }
            let match = String(page.text[range])
            return match.components(separatedBy: "value=\"")[1].dropLast().description
        }

        /// Signs in afresh (any earlier cookie forgotten).
        mutating func signIn(_ email: String, password: String = AdminSiteTests.password, code: String? = nil) async throws -> RawResponse {
            cookies = [:]
            let form = try await get("/admin/sign-in")
            let token = try #require(Self.field("csrf", in: form))
            return try await post("/admin/sign-in", [("csrf", token), ("next", "/admin/reports"), ("email", email), ("password", password)]
                                  + (code.map { [("code", $0)] } ?? []))
        }

        /// The form token of a signed-in page.
        mutating func formToken() async throws -> String {
            try #require(Self.field("csrf", in: try await get("/admin/reports")))
        }
    }

    /// An admin, a maker with a shared grid titled with markup, and a reporter's report on it.
    struct World {
        var admin: GatewayHarness.Account
        var maker: GatewayHarness.Account
        var reporter: GatewayHarness.Account
        var grid: UUID
        var report: UUID
    }

    static func world(_ gateway: GatewayHarness) async throws -> World {
        let admin = try await gateway.signUp("ada", password: password)
        let maker = try await gateway.signUp("mia", password: password)
        let reporter = try await gateway.signUp("ned", password: password)
        try await gateway.sql { try await $0.query("insert into social.admins (user_id) values (\(admin.id))") }
        let grid = UUID()
        let saved = try await gateway.rpc("grids", "save_grid", as: maker, ["p_grid": [
            "id": grid.uuidString, "title": "<script>alert(1)</script>", "size": 7, "color": "sky", "theme": "outdoors", "shared": true,
            "squares": (0..<49).map { "Square <b>\($0)</b>" },
        ] as [String: Any]])
        #expect(saved.status == 200, "\(saved.text)")
        let reported = try await gateway.rpc("social", "report", as: reporter,
                                             ["p_target_type": "grid", "p_target_id": grid.uuidString, "p_reason": "spam", "p_details": "\"quoted\" & <i>"])
        #expect(reported.status == 200, "\(reported.text)")
        let report = try await gateway.sql { try await $0.query("select id from social.reports").scalar(UUID.self) }
        return World(admin: admin, maker: maker, reporter: reporter, grid: grid, report: report)
    }

    static func hidden(_ gateway: GatewayHarness, _ grid: UUID) async throws -> Bool {
        try await gateway.sql { try await $0.query("select hidden_at is not null from grids.grids where id = \(grid)").scalar(Bool.self) }
    }

    @Test func everyAnswerCarriesTheSecurityHeadersAndNoCORS() async throws {
        try await withGateway { gateway in
            var visitor = Visitor(gateway: gateway)
            for path in ["/admin/sign-in", "/admin/reports", "/admin/static/admin.css", "/admin/static/admin.js", "/admin/nope"] {
                let response = try await visitor.get(path)
                #expect(response.headers["content-security-policy"] == AdminSite.contentSecurityPolicy, "\(path)")
                #expect(response.headers["x-content-type-options"] == "nosniff", "\(path)")
                #expect(response.headers["referrer-policy"] == "same-origin", "\(path)")
                #expect(response.headers["x-frame-options"] == "DENY", "\(path)")
                #expect(response.headers["access-control-allow-origin"] == nil, "\(path): the admin site is no API")
            }
            let page = try await visitor.get("/admin/sign-in")
            #expect(page.headers["cache-control"] == "no-store")
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(!page.text.contains("<script>") && !page.text.contains("style="), "no inline script or style: \(page.text)")
            #expect(try await visitor.get("/admin/static/admin.css").headers["content-type"] == "text/css; charset=utf-8")
            #expect(try await visitor.get("/admin/static/admin.js").headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(try await visitor.get("/admin/static/other.js").status == 404)
            let preflight = try await visitor.send("OPTIONS", "/admin/reports")
            #expect(preflight.headers["access-control-allow-origin"] == nil && preflight.status == 401)
        }
    }

    @Test func nothingIsServedWithoutAnAdminSession() async throws {
        try await withGateway { gateway in
            let world = try await Self.world(gateway)
            var visitor = Visitor(gateway: gateway)
            let id = world.report.uuidString.lowercased()
            for path in ["/admin", "/admin/reports", "/admin/reports/\(id)", "/admin/people/\(world.maker.id)", "/admin/log",
                         "/admin/resorts", "/admin/resorts/alpha/graph.svg", "/admin/pictures/photos/\(world.maker.id)/x.webp"] {
                let response = try await visitor.get(path)
                #expect(response.status == 303, "\(path): \(response.status)")
                #expect(response.headers["location"]?.hasPrefix("/admin/sign-in?next=") == true, "\(path)")
                #expect(!response.text.contains("alert"), "\(path) leaks nothing")
            }
            #expect(try await visitor.get("/admin/reports?status=all").headers["location"] == "/admin/sign-in?next=%2Fadmin%2Freports", "a link's query is not carried")
            let forged = try await visitor.post("/admin/grids/\(world.grid)/hide", [("note", "no session")])
            #expect(forged.status == 401)
            // A user's access token is no admin session, in a cookie or a header.
            visitor.cookies["summit_admin"] = world.admin.accessToken
            #expect(try await visitor.get("/admin/reports").status == 303)
            visitor.cookies = [:]
            visitor.headers["Authorization"] = "Bearer \(world.admin.accessToken)"
            #expect(try await visitor.get("/admin/reports").status == 303)
            #expect(try await Self.hidden(gateway, world.grid) == false)
        }
    }

    @Test func aNonAdminGetsARefusalAndNoSession() async throws {
        try await withGateway { gateway in
            let world = try await Self.world(gateway)
            var visitor = Visitor(gateway: gateway)
            let refused = try await visitor.signIn("ned@example.test")
            #expect(refused.status == 403)
            #expect(refused.text.contains("ned@example.test is not an admin"))
            #expect(visitor.cookies["summit_admin"] == nil)
            // The auth session the right password began is over at once.
            let open = try await gateway.sql {
                try await $0.query("select count(*)::int from auth.refresh_sessions where user_id = \(world.reporter.id) and revoked_at is null").scalar(Int.self)
            }
            #expect(open == 1, "only the session of ned's sign-up remains")
            #expect(try await visitor.get("/admin/reports").status == 303)
            let wrong = try await visitor.signIn("ada@example.test", password: "not it")
            #expect(wrong.status == 401 && wrong.text.contains("Wrong email or password") && visitor.cookies["summit_admin"] == nil)
        }
    }

    @Test func anAdminWithAnAuthenticatorSignsInWithItsCode() async throws {
        try await withGateway { gateway in
            let world = try await Self.world(gateway)
            // Ada enrolls a TOTP factor through /auth/v1/factors and verifies it with this step's code.
            let enrolled = try await gateway.http("POST", "/auth/v1/factors", token: world.admin.accessToken, json: ["factor_type": "totp"])
            let factor = try #require(enrolled.json as? [String: Any], "\(enrolled.text)")
            let factorID = try #require(factor["id"] as? String)
            let secret = try #require((factor["totp"] as? [String: Any])?["secret"] as? String)
            let challenge = try await gateway.http("POST", "/auth/v1/factors/\(factorID)/challenge", token: world.admin.accessToken, json: [:])
            let challengeID = try #require((challenge.json as? [String: Any])?["id"] as? String, "\(challenge.text)")
            func code(_ step: Int) async throws -> String {
                try await gateway.sql {
                    try await $0.query("""
                        select auth.gateway_totp(auth.gateway_base32_decode(\(secret)), floor(extract(epoch from now()) / 30)::bigint + \(step))
                        """).scalar(String.self)
                }
            }
            let verified = try await gateway.http("POST", "/auth/v1/factors/\(factorID)/verify", token: world.admin.accessToken,
                                                  json: ["challenge_id": challengeID, "code": try await code(0)])
            #expect(verified.status == 200, "\(verified.text)")
            func openSessions() async throws -> Int {
                try await gateway.sql {
                    try await $0.query("select count(*)::int from auth.refresh_sessions where user_id = \(world.admin.id) and revoked_at is null")
                        .scalar(Int.self)
                }
            }
            let before = try await openSessions()

            var visitor = Visitor(gateway: gateway)
            let withoutCode = try await visitor.signIn("ada@example.test")
            #expect(withoutCode.status == 401 && withoutCode.text.contains("enter its 6-digit code"), "\(withoutCode.text)")
            #expect(visitor.cookies["summit_admin"] == nil)
            #expect(try await openSessions() == before, "the password's session ends with the refusal")
            let next = try await code(1)
            let wrongCode = try await visitor.signIn("ada@example.test", code: next == "000000" ? "111111" : "000000")
            #expect(wrongCode.status == 401 && wrongCode.text.contains("code is wrong"), "\(wrongCode.text)")
            #expect(visitor.cookies["summit_admin"] == nil)

            let signedIn = try await visitor.signIn("ada@example.test", code: next)
            #expect(signedIn.status == 303, "\(signedIn.text)")
            let cookie = try #require(visitor.cookies["summit_admin"])
            #expect(MFATests.claims(cookie)["aal"] as? String == "aal2")
            #expect(try await visitor.get("/admin/reports").status == 200)
            // A code is taken once.
            var again = Visitor(gateway: gateway)
            let replayed = try await again.signIn("ada@example.test", code: next)
            #expect(replayed.status == 401 && again.cookies["summit_admin"] == nil, "\(replayed.text)")
        }
    }

    @Test func signInTakesItsOwnFormFromItsOwnOriginOnly() async throws {
        try await withGateway { gateway in
            _ = try await Self.world(gateway)
            var visitor = Visitor(gateway: gateway)
            let form = try await visitor.get("/admin/sign-in")
            let token = try #require(Visitor.field("csrf", in: form))
            let fields = [("csrf", token), ("email", "ada@example.test"), ("password", Self.password)]
            #expect(try await visitor.post("/admin/sign-in", fields, origin: "https://evil.example").status == 403)
            #expect(try await visitor.post("/admin/sign-in", fields, origin: "").status == 403)
            var stranger = Visitor(gateway: gateway)
            #expect(try await stranger.post("/admin/sign-in", fields).status == 403, "a token without its nonce cookie")
            #expect(stranger.cookies["summit_admin"] == nil && visitor.cookies["summit_admin"] == nil)
            // A `next` elsewhere is not followed.
            let signedIn = try await visitor.post("/admin/sign-in", fields + [("next", "//evil.example/admin/")])
            #expect(signedIn.status == 303 && signedIn.headers["location"] == "/admin/reports")
            let cookie = try #require(signedIn.fields.first { $0.name == "set-cookie" && $0.value.hasPrefix("summit_admin=") }?.value)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/admin")
                    && cookie.contains("Max-Age=\(gateway.configuration.adminSessionLifetime)") && !cookie.contains("Secure"), "\(cookie)")
        }
    }

    @Test func theCookieIsSecureWhenTheSiteIsReachedOverTLS() async throws {
        try await withGateway { gateway in
            _ = try await Self.world(gateway)
            // Behind a TLS proxy on this machine, which says so.
            var visitor = Visitor(gateway: gateway, origin: "https://localhost", headers: ["X-Forwarded-Proto": "https"])
            let signedIn = try await visitor.signIn("ada@example.test")
            let cookie = try #require(signedIn.fields.first { $0.name == "set-cookie" && $0.value.hasPrefix("summit_admin=") }?.value)
            #expect(cookie.hasSuffix("; Secure"), "\(cookie)")
        }
    }

    @Test func formsNeedTheSessionsTokenAndTheSitesOrigin() async throws {
        try await withGateway { gateway in
            let world = try await Self.world(gateway)
            var admin = Visitor(gateway: gateway)
            #expect(try await admin.signIn("ada@example.test").status == 303)
            let token = try await admin.formToken()
            let hide = "/admin/grids/\(world.grid)/hide"
            #expect(try await admin.post(hide, [("note", "no token")]).status == 403)
            #expect(try await admin.post(hide, [("csrf", String(token.reversed())), ("note", "a wrong token")]).status == 403)
            #expect(try await admin.post(hide, [("csrf", token)], origin: "https://evil.example").status == 403)
            #expect(try await admin.post(hide, [("csrf", token)], origin: "").status == 403)
            #expect(try await admin.send("POST", hide, ["Origin": admin.origin, "Content-Type": "application/json"],
                                         Array("{\"csrf\": \"\(token)\"}".utf8)).status == 400)
            // Another admin's session has another token.
            try await gateway.sql { try await $0.query("insert into social.admins (user_id) values (\(world.maker.id))") }
            var other = Visitor(gateway: gateway)
            #expect(try await other.signIn("mia@example.test").status == 303)
            #expect(try await other.post(hide, [("csrf", token)]).status == 403)
            #expect(try await admin.get(hide).status == 404, "GET never acts")
            #expect(try await Self.hidden(gateway, world.grid) == false, "nothing above hid the grid")

            let done = try await admin.post(hide, [("csrf", token), ("report", world.report.uuidString), ("note", "spam"),
                                                   ("back", "/admin/reports/\(world.report.uuidString.lowercased())")])
            #expect(done.status == 303 && done.headers["location"] == "/admin/reports/\(world.report.uuidString.lowercased())?done=hid-grid")
            #expect(try await Self.hidden(gateway, world.grid))
            // Done as ada: the RPC's caller, so the log names her.
            let logged = try await gateway.sql {
                try await $0.query("select admin_id from social.moderation_actions where action = 'hide_grid'").scalar(UUID.self)
            }
            #expect(logged == world.admin.id)
            let back = try await admin.post("/admin/grids/\(world.grid)/unhide", [("csrf", token), ("back", "https://evil.example/")])
            #expect(back.headers["location"] == "/admin/log?done=unhid-grid", "a foreign back is not followed")
            #expect(try await Self.hidden(gateway, world.grid) == false)
            let badDate = try await admin.post("/admin/people/\(world.maker.id)/suspend", [("csrf", token), ("until", "next week")])
            #expect(badDate.status == 400 && badDate.text.contains("Nothing was changed"))
            #expect(try await gateway.sql {
                try await $0.query("select count(*)::int from social.moderation_actions where action = 'suspend_sharing'").scalar(Int.self)
            } == 0)
        }
    }

    @Test func aSessionEndsWithSignOutItsLifeOrTheAdminRow() async throws {
        try await withGateway(configure: { $0.adminSessionLifetime = 600 }) { gateway in
            let world = try await Self.world(gateway)
            var visitor = Visitor(gateway: gateway)
            _ = try await visitor.signIn("ada@example.test")
            #expect(try await visitor.get("/admin/reports").status == 200)
            gateway.clock.advance(601)
            #expect(try await visitor.get("/admin/reports").status == 303, "past its life")

            _ = try await visitor.signIn("ada@example.test")
            #expect(try await visitor.get("/admin/log").status == 200)
            try await gateway.sql { try await $0.query("delete from social.admins where user_id = \(world.admin.id)") }
            #expect(try await visitor.get("/admin/log").status == 303, "no longer an admin")
            try await gateway.sql { try await $0.query("insert into social.admins (user_id) values (\(world.admin.id))") }

            _ = try await visitor.signIn("ada@example.test")
            let cookie = try #require(visitor.cookies["summit_admin"])
            let out = try await visitor.post("/admin/sign-out", [("csrf", try await visitor.formToken())])
            #expect(out.status == 303 && out.headers["location"] == "/admin/sign-in?done=signed-out" && visitor.cookies["summit_admin"] == nil)
            visitor.cookies["summit_admin"] = cookie
            #expect(try await visitor.get("/admin/reports").status == 303, "a signed-out cookie opens nothing")
            // Signing out everywhere through the auth API ends it too.
            _ = try await visitor.signIn("ada@example.test")
            let session = try await gateway.http("POST", "/auth/v1/token?grant_type=password",
                                                 json: ["email": "ada@example.test", "password": Self.password])
            let access = try #require((session.json as? [String: Any])?["access_token"] as? String)
            #expect(try await gateway.http("POST", "/auth/v1/logout?scope=global", token: access).status == 204)
            #expect(try await visitor.get("/admin/reports").status == 303)
        }
    }

    @Test func whatUsersWroteIsShownAsText() async throws {
        try await withGateway { gateway in
            let world = try await Self.world(gateway)
            var visitor = Visitor(gateway: gateway)
            _ = try await visitor.signIn("ada@example.test")
            let queue = try await visitor.get("/admin/reports")
            #expect(queue.status == 200)
            #expect(queue.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !queue.text.contains("<script>alert"), "\(queue.text)")
            #expect(queue.text.contains("&quot;quoted&quot; &amp; &lt;i&gt;"))
            let report = try await visitor.get("/admin/reports/\(world.report.uuidString.lowercased())")
            #expect(report.text.contains("<li>Square &lt;b&gt;0&lt;/b&gt;</li>") && !report.text.contains("<b>0</b>"))
            #expect(report.text.contains("<title>Grid report: &lt;script&gt;"))
            #expect(try await visitor.get("/admin/reports?status=everything").status == 400)
            #expect(try await visitor.get("/admin/reports?before=yesterday").status == 400)
            #expect(try await visitor.get("/admin/reports/not-an-id").status == 404)
            #expect(try await visitor.get("/admin/reports/\(UUID())").status == 404)
        }
    }

    @Test func htmlTextEscapesWhatIsInterpolated() {
        let text = "<a href=\"x\" title='y'>&</a>"
        let html: HTMLText = "<p title=\"\(text)\">\(text)</p>"
        #expect(html.html == "<p title=\"&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;\">"
                + "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;</p>")
        let inner: HTMLText = "<b>\(text)</b>"
        let outer: HTMLText = "<div>\(inner)\([inner, inner])</div>"
        #expect(outer.html.components(separatedBy: "<b>").count == 4, "markup passes as markup, text as text")
    }
}
