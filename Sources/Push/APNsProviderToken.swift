import Digest
import Foundation

/// The provider authentication token APNs expects in `authorization: bearer …`:
/// a JWT with header `{"alg":"ES256","kid":KEY_ID}` and claims
/// `{"iss":TEAM_ID,"iat":SECONDS}`, signed with the team's auth key.
///
/// Apple rejects a token older than an hour (403 ExpiredProviderToken) and one
/// replaced more often than every 20 minutes (429 TooManyProviderTokenUpdates),
/// so one token is reused for `refreshInterval` (kept between 20 and 60 minutes).
final class APNsProviderToken: @unchecked Sendable {
    static let shortestRefresh: TimeInterval = 20 * 60
    static let longestRefresh: TimeInterval = 60 * 60 - 5 * 60

    let teamID: String
    let keyID: String
    let refreshInterval: TimeInterval
    private let signer: ES256Signer
    private let lock = NSLock()
    private var cached: (token: String, issuedAt: Date)?

    init(teamID: String, keyID: String, signer: ES256Signer, refreshInterval: TimeInterval) {
        self.teamID = teamID
        self.keyID = keyID
        self.signer = signer
        self.refreshInterval = min(max(refreshInterval, Self.shortestRefresh), Self.longestRefresh)
    }

    /// The token to send now: the cached one while it is younger than the refresh interval.
    func current(now: Date = Date()) throws -> String {
        try lock.withLock {
            if let cached, now.timeIntervalSince(cached.issuedAt) < refreshInterval, now >= cached.issuedAt {
                return cached.token
            }
            let token = try make(issuedAt: now)
            cached = (token, now)
            return token
        }
    }

    /// APNs said the token expired: the next request gets a new one, unless the
    /// current one is younger than 20 minutes (a new one would be refused as too frequent).
    func expire(now: Date = Date()) {
        lock.withLock {
            if let issued = cached?.issuedAt, now.timeIntervalSince(issued) >= Self.shortestRefresh { cached = nil }
        }
    }

    func make(issuedAt: Date) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": keyID], options: [.sortedKeys])
        let claims = try JSONSerialization.data(withJSONObject: ["iss": teamID, "iat": Int(issuedAt.timeIntervalSince1970)],
                                                options: [.sortedKeys])
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature: [UInt8]
        do { signature = try signer.sign(Array(signingInput.utf8)) } catch { throw APNsConfigurationError(error) }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
