import Digest
import Foundation

/// JSON Web Tokens (RFC 7519): the access tokens the gateway issues (HS256 with its
/// secret, or ES256/RS256 with its signing key), and the anon and service keys (HS256).
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

    /// Signs `claims` (a JSON object's text) with `secret` (HS256).
    public static func sign(claimsJSON: String, secret: [UInt8]) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(claimsJSON.utf8))
        let signingInput = header + "." + payload
        return signingInput + "." + Base64URL.encode(HMACSHA256.mac(key: secret, message: Array(signingInput.utf8)))
    }

    public static func sign(claims: [String: Any], secret: [UInt8]) -> String {
        sign(claimsJSON: JSONText.serialize(claims), secret: secret)
    }

    /// Signs `claims` with the key set's signing key (ES256 or RS256, naming it by `kid`),
    /// or with its secret (HS256) when it has none.
    public static func sign(claims: [String: Any], keys: TokenKeys) throws(JWSKey.Failure) -> String {
        guard let key = keys.signingKey else { return sign(claims: claims, secret: keys.secret) }
        let header = Base64URL.encode(Array(JSONText.serialize(["alg": key.algorithm.rawValue, "typ": "JWT", "kid": key.kid]).utf8))
        let signingInput = header + "." + Base64URL.encode(Array(JSONText.serialize(claims).utf8))
        return signingInput + "." + Base64URL.encode(try key.sign(Array(signingInput.utf8)))
    }

    /// A compact JWS taken apart; nothing about it checked but its form.
    struct Parsed {
        var header: [String: Any]
        var claims: [String: Any]
        var claimsText: String
        var signingInput: [UInt8]
        var signature: [UInt8]

        var algorithm: String? { header["alg"] as? String }
        var kid: String? { header["kid"] as? String }

        init(_ token: String) throws(Failure) {
            guard token.utf8.count <= maxLength else { throw .malformed("longer than \(maxLength) bytes") }
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw .malformed("it must have three dot-separated parts") }
            guard let headerBytes = Base64URL.decode(parts[0]),
                  let header = JSONText.parse(headerBytes) as? [String: Any] else {
                throw .malformed("the header is not base64url JSON")
            }
            if let type = header["typ"], (type as? String)?.uppercased() != "JWT" {
                throw .malformed("typ must be JWT")
            }
            guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
            guard let payloadBytes = Base64URL.decode(parts[1]),
                  let claims = JSONText.parse(payloadBytes) as? [String: Any],
                  let claimsText = String(validating: payloadBytes, as: UTF8.self) else {
                throw .malformed("the payload is not a base64url JSON object")
            }
            self.header = header
            self.claims = claims
            self.claimsText = claimsText
            signingInput = Array((parts[0] + "." + parts[1]).utf8)
            self.signature = signature
        }

        /// Checks the signature with the asymmetric key `keys` names by `kid` for the header's
        /// algorithm (`none`, HS256 and every other algorithm refused).
        func checkSignature(with keys: [JWSKey]) throws(Failure) {
            guard let name = algorithm, let algorithm = JWSKey.Algorithm(rawValue: name) else {
                throw .malformed("alg must be \(JWSKey.Algorithm.allCases.map(\.rawValue).joined(separator: " or ")), not \(self.algorithm ?? "none")")
            }
            let candidates = keys.filter { $0.algorithm == algorithm && (kid == nil || $0.kid == kid) }
            guard !candidates.isEmpty else { throw .badSignature }
            guard candidates.contains(where: { $0.verify(signature, of: signingInput) }) else { throw .badSignature }
        }

        /// `exp` and `nbf`, with 30 seconds' leeway for clocks ahead; `exp` itself only when
        /// `requireExpiry` (an ID token must have one; the platform takes its own tokens without).
        /// The expiry, infinite when there is none.
        func checkTimes(now: Date, requireExpiry: Bool) throws(Failure) -> Double {
            let exp = (claims["exp"] as? NSNumber)?.doubleValue
            if claims["exp"] != nil && exp == nil { throw .claims("exp must be a number") }
            if requireExpiry && exp == nil { throw .claims("exp is required") }
            let seconds = now.timeIntervalSince1970
            if let exp, seconds >= exp { throw .expired }
            if let nbf = (claims["nbf"] as? NSNumber)?.doubleValue, seconds + 30 < nbf { throw .notYetValid }
            return exp ?? .infinity
        }
    }

    public static func verify(_ token: String, secret: [UInt8], now: Date = Date()) throws(Failure) -> VerifiedToken {
        try verify(token, keys: TokenKeys(secret: secret), now: now)
    }

    /// Checks the format, the algorithm (HS256 with the secret, ES256 or RS256 with a key of
    /// the set named by `kid`; `none` and the rest refused), the signature, `exp` (when there is
    /// one: a token without, signed with the secret, is taken as PostgREST and GoTrue take it)
    /// and `nbf`, and the role: anon, authenticated (with a user id in `sub` and `aud`
    /// authenticated) or service_role; `supabase_admin` too where `admin` (the auth admin API
    /// takes GoTrue's admin roles; no database role answers to that one).
    public static func verify(_ token: String, keys: TokenKeys, now: Date = Date(), admin: Bool = false) throws(Failure) -> VerifiedToken {
        let parsed = try Parsed(token)
        if parsed.algorithm == "HS256" {
            let expected = HMACSHA256.mac(key: keys.secret, message: parsed.signingInput)
            guard HMACSHA256.constantTimeEqual(parsed.signature, expected) else { throw .badSignature }
        } else if parsed.algorithm.flatMap(JWSKey.Algorithm.init(rawValue:)) != nil {
            try parsed.checkSignature(with: keys.verifyingKeys)
        } else {
            throw .malformed("only alg HS256, ES256 and RS256 are accepted, not \(parsed.header["alg"].map { "\($0)" } ?? "none")")
        }
        let claims = parsed.claims
        let exp = try parsed.checkTimes(now: now, requireExpiry: false)
        guard let role = claims["role"] as? String else { throw .claims("role is required") }
        var user: UUID?
        switch role {
        case "anon", "service_role":
            break
        case "supabase_admin" where admin:
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
                             claimsJSON: parsed.claimsText, token: token, app: claims["app"] as? String)
    }
}

/// The keys tokens are signed and verified with: the HS256 secret (the API keys, and
/// access tokens when no asymmetric key is set), the asymmetric signing key, and the
/// earlier keys that still verify the tokens they signed until those expire.
public struct TokenKeys: Sendable {
    public var secret: [UInt8]
    public var signingKey: JWSKey?
    public var previousKeys: [JWSKey]

    public init(secret: [UInt8], signingKey: JWSKey? = nil, previousKeys: [JWSKey] = []) {
        self.secret = secret
        self.signingKey = signingKey
        self.previousKeys = previousKeys
    }

    /// The signing key, then the earlier ones.
    public var verifyingKeys: [JWSKey] { (signingKey.map { [$0] } ?? []) + previousKeys }

    /// `/.well-known/jwks.json`: the public halves of every verifying key (none for HS256, a shared secret).
    public var keySet: [String: Any] { ["keys": verifyingKeys.map(\.publicJWK)] }
}

/// A token that verified: who it names and the claims to hand to SQL.
public struct VerifiedToken: Sendable, Equatable {
    /// anon, authenticated or service_role.
    public var role: String
    public var userID: UUID?
    /// `exp`, in Unix seconds; infinite for a token without one.
    public var expiresAt: Double
    public var sessionID: UUID?
    /// The payload exactly as signed: what `request.jwt.claims` holds.
    public var claimsJSON: String
    public var token: String
    /// The app an API key was made for (its `app` claim), if any.
    public var app: String?
}
