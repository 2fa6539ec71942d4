import Digest
import Foundation
import Postgres

/// Signing in and out: the gateway's own password check (with `/auth/v1`'s rate
/// limits), then the row in `social.admins`. A non-admin's sign-in is ended at once
/// and answered with a refusal: no cookie, no page.
extension AdminSite {
    func signInPage(_ request: HTTPRequest) async -> HTTPResponse {
        let next = Self.query(request, "next").flatMap { Self.isSitePath(Substring($0)) ? $0 : nil } ?? "/admin/reports"
        if case .some(.some) = try? await signedIn(request) { return Self.redirect(next) }
        return signInForm(request, next: next, status: 200, problem: nil, notice: Self.notice(request))
    }

    /// The form, with a fresh nonce cookie its token is bound to.
    private func signInForm(_ request: HTTPRequest, next: String, status: Int, problem: String?, notice: String? = nil,
                            email: String = "") -> HTTPResponse {
        let nonce = HMACSHA256.randomBytes(16).hexString
        let problemHTML: HTMLText = problem.map { "<p class=\"problem\" role=\"alert\">\($0)</p>" } ?? .empty
        var response = Self.page(status, title: "Sign in", admin: nil, notice: notice, """
            \(problemHTML)<form method="post" action="/admin/sign-in" class="sign-in">
            <input type="hidden" name="csrf" value="\(keys.signInToken(nonce: nonce))">
            <input type="hidden" name="next" value="\(next)">
            <label><span>Email</span><input type="email" name="email" value="\(email)" autocomplete="username" required autofocus></label>
            <label><span>Password</span><input type="password" name="password" autocomplete="current-password" required></label>
            <label><span>Authenticator code</span><input type="text" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" placeholder="if your account has an authenticator"></label>
            <button type="submit">Sign in</button>
            </form>
            <p class="muted">For moderators only: accounts in <code>social.admins</code> (<code>summit admin grant USER</code>).</p>
            """)
        response.headers.add("set-cookie", setCookie(AdminSessionKeys.signInCookie, nonce, maxAge: 3600, request))
        return response
    }

    func signIn(_ request: HTTPRequest) async -> HTTPResponse {
        do {
            try checkOrigin(request, admin: nil)
        } catch {
            return error.response
        }
        guard let form = AdminForm(request) else {
            return Self.errorPage(400, "Not a form", "Sign in with the form at /admin/sign-in.")
        }
        let next = form["next"].flatMap { Self.isSitePath(Substring($0)) ? $0 : nil } ?? "/admin/reports"
        guard let nonce = Self.cookie(AdminSessionKeys.signInCookie, in: request),
              AdminSessionKeys.matches(form["csrf"], keys.signInToken(nonce: nonce)) else {
            return signInForm(request, next: next, status: 403, problem: "The sign-in form had expired: sign in again.")
        }
        guard let email = form.text("email"), let password = form["password"], !password.isEmpty else {
            return signInForm(request, next: next, status: 400, problem: "Enter your email and your password.", email: form["email"] ?? "")
        }
        let account = AuthRateLimiter.accountKey(email)
        let session: [String: Any]
        switch await auth.passwordSignIn(email: email, password: password, request) {
        case .session(let granted):
            session = granted
        case .refused(let response) where response.status == 429:
            return tooMany(response)
        case .refused(let response) where response.status >= 500:
            return Self.errorPage(503, "Sign-in failed", "The database is not reachable: try again in a moment.")
        case .refused(let response):
            // What the auth service said, in its words, but for wrong credentials.
            let said = JSONText.parse(response.body) as? [String: Any]
            let problem = said?["error_code"] as? String == "invalid_credentials" ? "Wrong email or password."
                : (said?["msg"] as? String).map { "Not signed in: \($0)." } ?? "Wrong email or password."
            return signInForm(request, next: next, status: 401, problem: problem, email: email)
        }
        guard let token = session["access_token"] as? String,
              let caller = try? context.credentials.verify(token, now: context.clock()),
              let user = caller.userID, let sessionID = caller.sessionID else {
            return Self.errorPage(500, "Sign-in failed", "The session the auth service began could not be read: try again.")
        }
        let isAdmin: Bool
        do {
            isAdmin = try await context.queryAsService("select exists (select 1 from social.admins where user_id = \(user))").scalar(Bool.self)
        } catch {
            _ = try? await context.queryAsService("select auth.gateway_sign_out(\(user), \(sessionID), 'local')")
            return Self.errorPage(503, "Sign-in failed", "The database is not reachable: try again in a moment.")
        }
        guard isAdmin else {
            // The password was right, but this is no moderator: the session it began ends now.
            _ = try? await context.queryAsService("select auth.gateway_sign_out(\(user), \(sessionID), 'local')")
            var refusal = Self.errorPage(403, "Not a moderator",
                                         "\(email) is not an admin: the moderation site is for people in social.admins. "
                                         + "An operator adds one with summit admin grant USER.")
            refusal.headers.add("set-cookie", setCookie(AdminSessionKeys.sessionCookie, "", maxAge: 0, request))
            refusal.headers.add("set-cookie", setCookie(AdminSessionKeys.signInCookie, "", maxAge: 0, request))
            return refusal
        }
        // An account with an authenticator signs in with its code too (the session rises to aal2).
        let aal: String
        switch await secondFactor(user: user, session: sessionID, code: form.text("code")) {
        case .none: aal = "aal1"
        case .verified: aal = "aal2"
        case .refused(let problem):
            _ = try? await context.queryAsService("select auth.gateway_sign_out(\(user), \(sessionID), 'local')")
            await auth.limiter.failed(account)
            return signInForm(request, next: next, status: 401, problem: problem, email: email)
        case .unreachable:
            _ = try? await context.queryAsService("select auth.gateway_sign_out(\(user), \(sessionID), 'local')")
            return Self.errorPage(503, "Sign-in failed", "The database is not reachable: try again in a moment.")
        }
        let lifetime = context.configuration.adminSessionLifetime
        let cookie = keys.sessionToken(user: user, email: (session["user"] as? [String: Any])?["email"] as? String ?? email,
                                       session: sessionID, aal: aal, issuer: context.configuration.issuer, now: context.clock(), lifetime: lifetime)
        return Self.redirect(next, cookies: [setCookie(AdminSessionKeys.sessionCookie, cookie, maxAge: lifetime, request),
                                             setCookie(AdminSessionKeys.signInCookie, "", maxAge: 0, request)])
    }

    /// Ends the auth session the sign-in began, and with it the cookie everywhere.
    func signOut(_ request: HTTPRequest, admin: Admin) async -> HTTPResponse {
        do {
            _ = try await context.queryAsService("select auth.gateway_sign_out(\(admin.userID), \(admin.sessionID), 'local')")
        } catch {
            return Self.errorPage(503, "Not signed out", "The database is not reachable: try again in a moment.", admin: admin)
        }
        return Self.redirect("/admin/sign-in?done=signed-out",
                             cookies: [setCookie(AdminSessionKeys.sessionCookie, "", maxAge: 0, request)])
    }

    enum SecondFactor {
        /// The account has no verified authenticator.
        case none
        case verified
        /// The code is missing, malformed, wrong or used: what to tell the admin.
        case refused(String)
        case unreachable
    }

    /// The account's verified TOTP factor answered with `code`, through the same challenge
    /// and verification `/auth/v1/factors` uses (a code is accepted once).
    private func secondFactor(user: UUID, session: UUID, code: String?) async -> SecondFactor {
        do {
            let factor = try await context.queryAsService("""
                select id from auth.mfa_factors where user_id = \(user) and status = 'verified' order by created_at limit 1
                """).first?.decode(UUID.self, at: 0)
            guard let factor else { return .none }
            guard let code else {
                return .refused("This account has an authenticator: enter its 6-digit code with your password.")
            }
            let challenge = try await context.queryAsService(
                "select (auth.gateway_mfa_challenge(\(user), \(session), \(factor)) ->> 'id')::uuid").scalar(UUID.self)
            _ = try await context.queryAsService("select auth.gateway_mfa_verify(\(user), \(session), \(factor), \(challenge), \(code))")
            return .verified
        } catch let error as PostgresError where error.code == .raiseException {
            return .refused("The authenticator code is wrong, or was used already: enter the current one.")
        } catch {
            return .unreachable
        }
    }

    private func tooMany(_ limited: HTTPResponse) -> HTTPResponse {
        let wait = limited.headers["retry-after"] ?? "a few"
        var response = Self.errorPage(429, "Too many sign-ins", "Too many attempts: wait \(wait) seconds, then sign in again.")
        response.headers.set("retry-after", wait)
        return response
    }
}
