import Foundation
import Postgres

/// `/factors`: TOTP second factors — enroll (the secret, its `otpauth://` URI and QR
/// code), challenge, verify (the session rises to aal2 and gets new tokens), unenroll.
/// The factors themselves are listed on the user.
extension AuthService {
    func factors(_ request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        let caller: RequestCaller
        do { caller = try signedInCaller(request) } catch { return error.response }
        guard let body = Self.body(request) else { return Self.badJSON }
        let rest = Array(path.dropFirst())
        switch (request.method, rest.count) {
        case (.post, 0):
            return await enroll(caller, body, request)
        case (.post, 2) where rest[1] == "challenge", (.post, 2) where rest[1] == "verify", (.delete, 1):
            guard let factor = UUID(uuidString: String(rest[0])) else {
                return Self.error(404, "mfa_factor_not_found", "Factor not found: \(rest[0]) is not a factor id")
            }
            if request.method == .delete {
                return await answer("select auth.gateway_mfa_unenroll(\(caller.userID!), \(caller.sessionID), \(factor))::text")
            }
            if rest[1] == "challenge" {
                return await answer("select auth.gateway_mfa_challenge(\(caller.userID!), \(caller.sessionID), \(factor))::text")
            }
            if let limited = await limiter.admit(.verify, request) { return limited }
            guard let challenge = (body["challenge_id"] as? String).flatMap(UUID.init(uuidString:)),
                  let code = body["code"] as? String else {
                return Self.error(400, "validation_failed", "verify needs challenge_id (a challenge's id) and code (six digits)")
            }
            let account = "mfa:" + caller.userID!.uuidString
            if let held = await limiter.holding(account) { return held }
            let answer = await session(from: """
                select auth.gateway_mfa_verify(\(caller.userID!), \(caller.sessionID), \(factor), \(challenge), \(code))::text
                """, signedIn: true)
            if answer.status == 422 { await limiter.failed(account) }
            return answer
        default:
            return Self.error(405, "method_not_allowed",
                              "Summit serves POST /factors, POST /factors/{id}/challenge, POST /factors/{id}/verify and DELETE /factors/{id}")
        }
    }

    private func enroll(_ caller: RequestCaller, _ body: [String: Any], _ request: HTTPRequest) async -> HTTPResponse {
        let type = body["factor_type"] as? String ?? ""
        guard type == "totp" else {
            return Self.error(422, type == "phone" ? "mfa_phone_enroll_not_enabled" : "validation_failed",
                              "factor_type must be totp: Summit enrolls authenticator apps, not \(type.isEmpty ? "nothing" : type)")
        }
        let name = body["friendly_name"] as? String
        do {
            let text = try await context.queryAsService(
                "select auth.gateway_mfa_enroll(\(caller.userID!), \(caller.sessionID), \(name))::text").scalar(String.self)
            guard var factor = JSONText.parse(text) as? [String: Any], let secret = factor.removeValue(forKey: "secret") as? String else {
                return Self.error(500, "unexpected_failure", "the enrollment answered something unreadable")
            }
            let account = factor.removeValue(forKey: "email") as? String ?? ""
            let issuer = (body["issuer"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                ?? URL(string: settings.siteURL)?.host ?? "Summit"
            let uri = TOTPEnrollment.uri(secret: secret, issuer: issuer, account: account.isEmpty ? caller.userID!.uuidString.lowercased() : account)
            factor["totp"] = ["secret": secret, "uri": uri, "qr_code": TOTPEnrollment.qrCode(uri) ?? ""]
            return .json(200, object: factor)
        } catch {
            return Self.failure(error, signedIn: true)
        }
    }

    private func answer(_ query: PostgresQuery) async -> HTTPResponse {
        do {
            return .json(200, try await context.queryAsService(query).scalar(String.self))
        } catch {
            return Self.failure(error, signedIn: true)
        }
    }
}
