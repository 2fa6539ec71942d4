import Digest
import Foundation

/// `grant_type=id_token`: Sign in with Apple or Google on the device, then hand the
/// provider's ID token over. It is verified here — signature against the provider's
/// key set, issuer, audience (one of the apps' client ids), expiry and nonce — and
/// SQL finds, links or makes the account.
extension AuthService {
    func idTokenGrant(_ body: [String: Any]) async -> HTTPResponse {
        guard let name = body["provider"] as? String, let idToken = body["id_token"] as? String, !idToken.isEmpty else {
            return Self.error(400, "validation_failed", "grant_type=id_token needs provider and id_token")
        }
        guard let provider = settings.identityProviders[name] else {
            let known = IdentityProvider.known.map(\.name)
            let why = known.contains(name)
                ? "set \(IdentityProvider.Key.clientIDs(name)) to its app ids to enable it"
                : "the providers are \(known.joined(separator: " and "))"
            return Self.error(400, "provider_disabled", "Provider \(name) is not enabled: \(why)")
        }
        let claims: [String: Any]
        do {
            claims = try await verifiedClaims(idToken, provider: provider, nonce: body["nonce"] as? String)
        } catch let refusal {
            return refusal.response
        }
        let email = claims["email"] as? String
        // Apple sends email_verified as a string.
        let verified = (claims["email_verified"] as? Bool) ?? ((claims["email_verified"] as? String) == "true")
        var data: [String: Any] = ["iss": claims["iss"] ?? ""]
        for (from, to) in [("name", "name"), ("name", "full_name"), ("picture", "picture"), ("picture", "avatar_url"),
                           ("given_name", "given_name"), ("family_name", "family_name"), ("is_private_email", "is_private_email")] {
            if let value = claims[from] { data[to] = value }
        }
        let subject = claims["sub"] as? String ?? ""
        return await session(from: """
            select auth.gateway_id_token_grant(\(name), \(subject), \(email), \(verified), \(JSONText.serialize(data))::jsonb,
                                              \(settings.signUps))::text
            """)
    }

    /// The ID token's claims once every check passed.
    private func verifiedClaims(_ token: String, provider: IdentityProvider, nonce: String?) async throws(Refusal) -> [String: Any] {
        func refuse(_ why: String) -> Refusal { Refusal(Self.error(400, "bad_jwt", "ID token of \(provider.name) refused: \(why)")) }
        let parsed: JWT.Parsed
        do { parsed = try JWT.Parsed(token) } catch { throw refuse("\(error)") }
        let keys: [JWSKey]
        do {
            keys = try await keySets.keys(for: provider, kid: parsed.kid)
        } catch {
            throw Refusal(Self.error(502, "unexpected_failure", "The \(provider.name) signing keys are out of reach (\(error)); try again"))
        }
        do {
            try parsed.checkSignature(with: keys)
            _ = try parsed.checkTimes(now: context.clock(), requireExpiry: true)
        } catch {
            throw refuse("\(error)")
        }
        let claims = parsed.claims
        guard let issuer = claims["iss"] as? String, provider.issuers.contains(issuer) else {
            throw refuse("iss must be \(provider.issuers.joined(separator: " or ")), not \(claims["iss"].map { "\($0)" } ?? "missing")")
        }
        let audiences = (claims["aud"] as? [String]) ?? [(claims["aud"] as? String) ?? ""]
        guard audiences.contains(where: provider.clientIDs.contains) else {
            throw refuse("aud \(audiences.joined(separator: ",")) is none of the client ids in \(IdentityProvider.Key.clientIDs(provider.name))")
        }
        guard let subject = claims["sub"] as? String, !subject.isEmpty else { throw refuse("it names no subject (sub)") }
        // The app hands the provider the SHA-256 of its nonce and sends the nonce itself here,
        // so a token caught on the way cannot be replayed by anyone who lacks the nonce.
        let tokenNonce = (claims["nonce"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let given = nonce.flatMap { $0.isEmpty ? nil : $0 }
        switch (tokenNonce, given) {
        case (nil, nil):
            break
        case (let expected?, let nonce?):
            guard SHA256.hex(nonce) == expected else {
                throw Refusal(Self.error(400, "bad_jwt", "Nonces mismatch: send the nonce whose SHA-256 the provider was given"))
            }
        default:
            throw Refusal(Self.error(400, "bad_jwt", "Passed nonce and nonce in id_token should either both exist or not."))
        }
        return claims
    }
}
