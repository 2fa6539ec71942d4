import Digest
import Foundation

/// The admin site's cookie and form tokens, signed with a key derived from the
/// gateway's secret (never the secret itself: a cookie is no access token, and an
/// access token opens no admin page).
///
/// The session cookie is an HS256 JWT carrying the claims the admin's statements run
/// with — `sub`, `session_id` (the auth session its sign-in started, whose sign-out or
/// revocation ends it), `exp` — so it needs no table and works across gateways. Each
/// form carries a token bound to that session (HMAC of its id), and the sign-in form one
/// bound to a nonce cookie of its own: a page elsewhere can neither read nor forge them.
struct AdminSessionKeys: Sendable {
    static let sessionCookie = "summit_admin"
    static let signInCookie = "summit_admin_sign_in"

    private let key: [UInt8]

    init(secret: [UInt8]) {
        key = HMACSHA256.mac(key: secret, message: Array("summit admin site key v1".utf8))
    }

    /// The cookie value for a session of `user`, begun as auth session `session`.
    func sessionToken(user: UUID, email: String, session: UUID, aal: String, issuer: String, now: Date, lifetime: Int) -> String {
        let issued = Int(now.timeIntervalSince1970)
        let methods: [[String: Any]] = (aal == "aal2" ? [["method": "totp", "timestamp": issued]] : []) + [["method": "password", "timestamp": issued]]
        let claims: [String: Any] = [
            "aud": "authenticated", "role": "authenticated", "iss": issuer, "sub": user.uuidString.lowercased(),
            "email": email, "session_id": session.uuidString.lowercased(), "iat": issued, "exp": issued + lifetime,
            "aal": aal, "amr": methods, "is_anonymous": false,
        ]
        return JWT.sign(claims: claims, secret: key)
    }

    /// The caller a session cookie names, if it verifies, has not run out, and names a session.
    func caller(ofSessionToken token: String, now: Date) -> RequestCaller? {
        guard let verified = try? JWT.verify(token, secret: key, now: now), verified.role == "authenticated",
              verified.userID != nil, verified.sessionID != nil, verified.expiresAt.isFinite else { return nil }
        return RequestCaller(verified)
    }

    /// The token every form of `session` carries.
    func formToken(session: UUID) -> String {
        mac("form " + session.uuidString.lowercased())
    }

    /// The sign-in form's token, bound to the nonce in its cookie.
    func signInToken(nonce: String) -> String {
        mac("sign-in " + nonce)
    }

    static func matches(_ sent: String?, _ expected: String) -> Bool {
        guard let sent else { return false }
        return HMACSHA256.constantTimeEqual(Array(sent.utf8), Array(expected.utf8))
    }

    private func mac(_ text: String) -> String {
        HMACSHA256.mac(key: key, message: Array(text.utf8)).hexString
    }
}
