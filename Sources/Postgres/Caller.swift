import Foundation

/// Who a statement runs as, the way the hosted platform's API gateway decides it:
/// a database role plus JWT claims that `auth.uid()`, `auth.role()` and
/// `auth.jwt()` read back, so row level security sees the same caller.
public enum Caller: Sendable, Hashable, CustomStringConvertible {
    /// No signed-in user: role `anon`.
    case anon
    /// A signed-in user: role `authenticated`, `sub` = the user's id, plus any extra claims.
    case user(UUID, claims: [String: String] = [:])
    /// The backend itself: role `service_role`, which bypasses row level security.
    case serviceRole

    public var role: String {
        switch self {
        case .anon: "anon"
        case .user: "authenticated"
        case .serviceRole: "service_role"
        }
    }

    public var userID: UUID? {
        if case .user(let id, _) = self { return id }
        return nil
    }

    /// The JWT claims as `request.jwt.claims` holds them (keys sorted: stable text).
    public var claimsJSON: String {
        // The common case, written out (it is sent with every call): the same text the encoder makes.
        if case .user(let id, let extra) = self, extra.isEmpty {
            return #"{"aud":"authenticated","role":"authenticated","sub":""# + id.uuidString.lowercased() + #""}"#
        }
        var claims: [String: String] = ["role": role]
        if case .user(let id, let extra) = self {
            claims.merge(extra) { _, new in new }
            claims["sub"] = id.uuidString.lowercased()
            claims["role"] = role
            claims["aud"] = claims["aud"] ?? "authenticated"
        }
        let data = try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    public var description: String {
        switch self {
        case .anon: "anon"
        case .user(let id, _): "user \(id.uuidString.lowercased())"
        case .serviceRole: "service_role"
        }
    }
}
