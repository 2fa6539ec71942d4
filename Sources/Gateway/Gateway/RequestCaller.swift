import Digest
import Foundation

/// Who a request runs as: the role and claims PostgreSQL will see, taken from the
/// bearer token when there is one, else from the API key.
public struct RequestCaller: Sendable, Equatable {
    /// anon, authenticated or service_role.
    public var role: String
    public var userID: UUID?
    public var sessionID: UUID?
    /// The claims exactly as signed: `request.jwt.claims` for the transaction.
    public var claimsJSON: String
    /// When the token runs out (Unix seconds).
    public var expiresAt: Double
    /// The app whose API key the request came with: its face is the default schema.
    public var app: AppFace?

    init(_ token: VerifiedToken) {
        role = token.role
        userID = token.userID
        sessionID = token.sessionID
        claimsJSON = token.claimsJSON
        expiresAt = token.expiresAt
        app = token.app.flatMap(AppFace.init(rawValue:))
    }

    public var isServiceRole: Bool { role == "service_role" }
}

/// Why a request's credentials were refused, for each service to word its own way.
enum CredentialProblem: Error, Sendable {
    /// No `apikey` header (or query parameter) at all.
    case missingAPIKey
    /// An `apikey` that is not one of the configured keys.
    case unknownAPIKey
    /// A bearer token that does not verify.
    case badToken(JWT.Failure)

    var message: String {
        switch self {
        case .missingAPIKey: "No API key found in request: send the anon key in the apikey header"
        case .unknownAPIKey: "Invalid API key: send the project's anon or service role key in the apikey header"
        case .badToken(.expired): "JWT expired: refresh the session and send the new access token"
        case .badToken(let failure): "Invalid JWT: \(failure)"
        }
    }
}

/// Checks a request's `apikey` and `Authorization` against the configuration.
struct Credentials: Sendable {
    let keys: TokenKeys
    var secret: [UInt8] { keys.secret }
    /// Every configured API key, the project's two first, then each app's pair.
    let apiKeys: [(text: String, token: VerifiedToken)]

    /// The project's service role, as the signer of URLs to objects anyone may fetch
    /// through a function that decided so (a signed URL names its one object).
    var serviceRole: RequestCaller { RequestCaller(apiKeys[1].token) }

    init(_ configuration: GatewayConfiguration) throws {
        keys = configuration.tokenKeys
        let texts = [configuration.anonKey, configuration.serviceRoleKey]
            + AppFace.allCases.flatMap { app in configuration.appKeys[app].map { [$0.anon, $0.serviceRole] } ?? [] }
        apiKeys = try texts.map { ($0, try JWT.verify($0, secret: configuration.jwtSecret)) }
    }

    /// The caller of `request`: the bearer token's, or the API key's when there is none.
    /// `apiKey` overrides the header (realtime sends it in the query string).
    func caller(of request: HTTPRequest, apiKey: String? = nil, now: Date = Date()) throws(CredentialProblem) -> RequestCaller {
        let key = try self.key(apiKey ?? request.headers["apikey"])
        guard let bearer = request.bearerToken, bearer != key.token else { return RequestCaller(key) }
        var caller = try verify(bearer, now: now)
        caller.app = key.app.flatMap(AppFace.init(rawValue:))
        return caller
    }

    /// The API key's own token, if it is one of those configured.
    func key(_ text: String?) throws(CredentialProblem) -> VerifiedToken {
        guard let text, !text.isEmpty else { throw .missingAPIKey }
        let bytes = Array(text.utf8)
        // Every key compared, in constant time each, so the time taken tells nothing of which.
        var found: VerifiedToken?
        for key in apiKeys where HMACSHA256.constantTimeEqual(bytes, Array(key.text.utf8)) && found == nil {
            found = key.token
        }
        guard let found else { throw .unknownAPIKey }
        return found
    }

    func verify(_ token: String, now: Date = Date(), admin: Bool = false) throws(CredentialProblem) -> RequestCaller {
        do {
            return RequestCaller(try JWT.verify(token, keys: keys, now: now, admin: admin))
        } catch {
            throw .badToken(error)
        }
    }
}
