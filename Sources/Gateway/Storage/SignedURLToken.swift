import Digest
import Foundation

/// The token of a signed download URL: an HS256 JWT over what it opens (a storage
/// object's `bucket/name`, an edge function's artifact), the scope, its expiry and
/// the signer's role and user, as the platform's tokens carry `url`, `scope` and `exp`.
///
/// It is signed with a key derived from the gateway's secret, never the secret
/// itself, as the platform keeps a URL signing key apart: a token taken from a URL
/// cannot be presented as an access token, nor an access token as a signed URL.
/// The signer rides along so the download reads through the signer's eyes: a
/// signed URL to a friend's avatar stops working when the friendship ends, as
/// every other read does.
struct SignedURLToken: Sendable {
    /// Longest life a signed URL may be given.
    static let maxLifetime = 365 * 24 * 3600
    static let scope = "download"

    let key: [UInt8]

    /// The refusal a failed check answers (status, error, message, code): each service words its own.
    typealias Refuse = @Sendable (Int, String, String, String?) -> Refusal

    /// `purpose` keeps each service's URLs apart: a storage token opens no function's artifact.
    init(secret: [UInt8], purpose: String = "storage") {
        key = HMACSHA256.mac(key: secret, message: Array("summit \(purpose) signed URL key v1".utf8))
    }

    func sign(bucket: String, name: String, expiresIn: Int, signer: RequestCaller, now: Date) -> String {
        sign(url: "\(bucket)/\(name)", expiresIn: expiresIn, signer: signer, now: now)
    }

    func sign(url: String, expiresIn: Int, signer: RequestCaller, now: Date) -> String {
        let issued = Int(now.timeIntervalSince1970)
        var claims: [String: Any] = ["url": url, "scope": Self.scope, "iat": issued, "exp": issued + expiresIn,
                                     "role": signer.role]
        if let user = signer.userID {
            claims["sub"] = user.uuidString.lowercased()
            claims["aud"] = "authenticated"
        }
        return JWT.sign(claims: claims, secret: key)
    }

    /// The signer to read as, once the token verifies, is unexpired, has the download
    /// scope and names exactly `bucket/name`.
    func verify(_ token: String, bucket: String, name: String, now: Date) throws(Refusal) -> RequestCaller {
        try verify(token, url: "\(bucket)/\(name)", now: now) { StorageError.refusal($0, $1, $2, code: $3) }
    }

    func verify(_ token: String, url: String, now: Date, refuse: Refuse) throws(Refusal) -> RequestCaller {
        let verified: VerifiedToken
        do {
            verified = try JWT.verify(token, secret: key, now: now)
        } catch .expired {
            throw refuse(400, "InvalidJWT", "jwt expired: the signed URL has run out; ask for a new one", nil)
        } catch {
            throw refuse(400, "InvalidJWT", "invalid signature: the token does not verify (\(error)); ask for a new signed URL", nil)
        }
        let claims = JSONText.parse(verified.claimsJSON) as? [String: Any] ?? [:]
        guard claims["scope"] as? String == Self.scope else {
            throw refuse(400, "InvalidSignature", "Token is not scoped for download", "InvalidSignature")
        }
        guard claims["url"] as? String == url else {
            throw refuse(400, "InvalidSignature", "Invalid signature: the token was signed for another object, not \(url)", "InvalidSignature")
        }
        return RequestCaller(verified)
    }
}
