import Digest
import Foundation

/// HS256 JSON Web Tokens (RFC 7519) signed with the gateway's secret: the access
/// tokens it issues, and the anon and service keys.
public enum JWT {
    /// Why a token was refused. `expired` is told apart, as clients react to it by refreshing.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed(String)
        case badSignature
        case expired
        case notYetValid
        case claims(String)

        public var description: String {
            switch self {
            case .malformed(let why): "the token is not a JWT: \(why)"
            case .badSignature: "the token's signature does not verify"
            case .expired: "the token has expired"
            case .notYetValid: "the token is not valid yet (nbf)"
            case .claims(let why): "the token's claims are not acceptable: \(why)"
            }
        }
    }

    /// Longest token accepted.
    static let maxLength = 8192

    /// Signs `claims` (a JSON object's text) with `secret`.
    public static func sign(claimsJSON: String, secret: [UInt8]) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(claimsJSON.utf8))
        let signingInput = header + "." + payload
        return signingInput + "." + Base64URL.encode(HMACSHA256.mac(key: secret, message: Array(signingInput.utf8)))
    }

    public static func sign(claims: [String: Any], secret: [UInt8]) -> String {
        sign(claimsJSON: JSONText.serialize(claims), secret: secret)
    }

    /// Checks the format, the algorithm (HS256 only: `none` and the rest are refused),
    /// the signature, `exp` (required) and `nbf`, and the role: anon, authenticated
    /// (with a user id in `sub` and `aud` authenticated) or service_role.
    public static func verify(_ token: String, secret: [UInt8], now: Date = Date()) throws(Failure) -> VerifiedToken {
        guard token.utf8.count <= maxLength else { throw .malformed("longer than \(maxLength) bytes") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("it must have three dot-separated parts") }
        guard let headerBytes = Base64URL.decode(parts[0]),
              let header = JSONText.parse(headerBytes) as? [String: Any] else {
            throw .malformed("the header is not base64url JSON")
        }
        guard header["alg"] as? String == "HS256" else {
            throw .malformed("only alg HS256 is accepted, not \(header["alg"].map { "\($0)" } ?? "none")")
        }
        if let type = header["typ"], (type as? String)?.uppercased() != "JWT" {
            throw .malformed("typ must be JWT")
        }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        let expected = HMACSHA256.mac(key: secret, message: Array((parts[0] + "." + parts[1]).utf8))
        guard HMACSHA256.constantTimeEqual(signature, expected) else { throw .badSignature }
        guard let payloadBytes = Base64URL.decode(parts[1]),
              let claims = JSONText.parse(payloadBytes) as? [String: Any],
              let claimsText = String(validating: payloadBytes, as: UTF8.self) else {
            throw .malformed("the payload is not a base64url JSON object")
        }
        guard let exp = (claims["exp"] as? NSNumber)?.doubleValue else { throw .claims("exp is required") }
        let seconds = now.timeIntervalSince1970
        guard seconds < exp else { throw .expired }
        if let nbf = (claims["nbf"] as? NSNumber)?.doubleValue, seconds + 30 < nbf { throw .notYetValid }
        guard let role = claims["role"] as? String else { throw .claims("role is required") }
        var user: UUID?
        switch role {
        case "anon", "service_role":
            break
        case "authenticated":
            guard let sub = claims["sub"] as? String, let id = UUID(uuidString: sub) else {
                throw .claims("an authenticated token needs a user id in sub")
            }
            let audience = claims["aud"]
            let audiences = (audience as? [String]) ?? [(audience as? String) ?? ""]
            guard audiences.contains("authenticated") else { throw .claims("aud must be authenticated") }
            user = id
        default:
            throw .claims("role must be anon, authenticated or service_role, not \(role)")
        }
        return VerifiedToken(role: role, userID: user, expiresAt: exp,
                             sessionID: (claims["session_id"] as? String).flatMap(UUID.init(uuidString:)),
                             claimsJSON: claimsText, token: token)
    }
}

/// A token that verified: who it names and the claims to hand to SQL.
public struct VerifiedToken: Sendable, Equatable {
    /// anon, authenticated or service_role.
    public var role: String
    public var userID: UUID?
    /// `exp`, in Unix seconds.
    public var expiresAt: Double
    public var sessionID: UUID?
    /// The payload exactly as signed: what `request.jwt.claims` holds.
    public var claimsJSON: String
    public var token: String
}
