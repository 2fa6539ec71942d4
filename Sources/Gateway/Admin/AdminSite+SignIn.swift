import Digest
import Foundation
import Postgres

/// Signing in and out: the gateway's own password check (with `/auth/v1`'s rate
/// limits), then the row in `social.admins`. A non-admin's sign-in is ended at once
/// and answered with a refusal: no cookie, no page.
extension AdminSite {
    func signInPage(_ request: HTTPRequest) async -> HTTPResponse {
        let next = Self.query(request, "next").flatMap { Self.isSitePath(Substring($0)) ? $0 : nil } ?? "/admin/reports"
        if await signedIn(request) != nil { return Self.redirect(next) }
        return signInForm(request, next: next, status: 200, problem: nil, notice: Self.notice(request))
    }

    /// The form, with a fresh nonce cookie its token is bound to.
    private func signInForm(_ request: HTTPRequest, next: String, status: Int, problem: String?, notice: String? = nil,
                            email: String = "") -> HTTPResponse {
        let nonce = SHA256.hex(HMACSHA256.randomBytes(16))
        let problemHTML: HTMLText = problem.map { "<p class=\"problem\" role=\"alert\">\($0)</p>" } ?? .empty
        var response = Self.page(status, title: "Sign in", admin: nil, notice: notice, """
            \(problemHTML)<form method="post" action="/admin/sign-in" class="sign-in">
            <input type="hidden" name="csrf" value="\(keys.signInToken(nonce: nonce))">
            <input type="hidden" name="next" value="\(next)">
            <label><span>Email</span><input type="email" name="email" value="\(email)" autocomplete="username" required autofocus></label>
            <label><span>Password</span><input type="password" name="password" autocomplete="current-password" required></label>
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
        if let limited = await auth.limiter.admit(.signIn, request) { return tooMany(limited) }
        let account = AuthRateLimiter.accountKey(email)
        if let held = await auth.limiter.holding(account) { return tooMany(held) }
        let outcome: AuthService.GrantOutcome
        do {
            outcome = try await auth.grant("select auth.gateway_password_grant(\(email), \(password))::text")
        } catch let error as PostgresError where error.code == .raiseException {
            await auth.limiter.failed(account)
            return signInForm(request, next: next, status: 401, problem: "Wrong email or password.", email: email)
        } catch {
            return Self.errorPage(503, "Sign-in failed", "The database is not reachable: try again in a moment.")
        }
        guard case .session(let session) = outcome, let token = session["access_token"] as? String,
              let caller = try? context.credentials.verify(token, now: context.clock()),
              let user = caller.userID, let sessionID = caller.sessionID else {
            await auth.limiter.failed(account)
            return signInForm(request, next: next, status: 401, problem: "Wrong email or password.", email: email)
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
        let lifetime = context.configuration.adminSessionLifetime
        let cookie = keys.sessionToken(user: user, email: (session["user"] as? [String: Any])?["email"] as? String ?? email,
                                       session: sessionID, issuer: context.configuration.issuer, now: context.clock(), lifetime: lifetime)
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

    private func tooMany(_ limited: HTTPResponse) -> HTTPResponse {
        let wait = limited.headers["retry-after"] ?? "a few"
        var response = Self.errorPage(429, "Too many sign-ins", "Too many attempts: wait \(wait) seconds, then sign in again.")
        response.headers.set("retry-after", wait)
        return response
    }
}
