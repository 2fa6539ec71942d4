import Foundation
import Postgres

/// The signed-in user: reading it (only while its session is on), changing it
/// (metadata, password, address), and the code a password change may need.
extension AuthService {
    func user(_ request: HTTPRequest) async -> HTTPResponse {
        let caller: RequestCaller
        do { caller = try signedInCaller(request) } catch { return error.response }
        do {
            let json = try await context.queryAsService(
                "select auth.gateway_current_user(\(caller.userID!), \(caller.sessionID))::text").scalar(String.self)
            return .json(200, json)
        } catch {
            return Self.failure(error, signedIn: true)
        }
    }

    /// PUT /user: `data` merged into user_metadata, `password` (with `nonce` when the
    /// setting asks for reauthentication), `email` (a code to the new address first).
    func updateUser(_ request: HTTPRequest) async -> HTTPResponse {
        let caller: RequestCaller
        do { caller = try signedInCaller(request) } catch { return error.response }
        guard let body = Self.body(request) else { return Self.badJSON }
        if body["phone"] != nil { return Self.error(422, "phone_provider_disabled", "Summit keeps no phone numbers") }
        for field in ["email", "password", "nonce"] where body[field] != nil && !(body[field] is String) {
            return Self.error(400, "validation_failed", "\(field) must be a string")
        }
        if let data = body["data"], !(data is [String: Any]), !(data is NSNull) {
            return Self.error(400, "validation_failed", "data must be a JSON object of user metadata")
        }
        let data = body["data"] is [String: Any] ? Self.metadata(body) : nil
        let (challenge, method) = Self.challenge(body)
        let result: [String: Any]
        do {
            let text = try await context.queryAsService("""
                select auth.gateway_update_user(\(caller.userID!), \(caller.sessionID), \(body["email"] as? String),
                  \(body["password"] as? String), \(data)::jsonb, \(body["nonce"] as? String), \(settings.passwordReauthentication),
                  \(challenge), \(method), \(settings.mailInterval), \(settings.codeLifetime))::text
                """).scalar(String.self)
            result = JSONText.parse(text) as? [String: Any] ?? [:]
        } catch {
            return Self.failure(error, signedIn: true)
        }
        if let failed = await deliver(result["mail"], request, body) { return failed }
        return .json(200, object: result["user"] ?? [:])
    }

    /// GET /reauthenticate: mails the code a password change then sends as `nonce`.
    func reauthenticate(_ request: HTTPRequest) async -> HTTPResponse {
        let caller: RequestCaller
        do { caller = try signedInCaller(request) } catch { return error.response }
        if let limited = await limiter.admit(.mail, request) { return limited }
        return await mailing("""
            select auth.gateway_reauthenticate(\(caller.userID!), \(caller.sessionID), \(settings.mailInterval), \(settings.codeLifetime))::text
            """, request, [:])
    }
}
