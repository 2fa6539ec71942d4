import Foundation

/// An edge function whose code lives outside the gateway — `summit serve` registers
/// the resort pipeline's (`build-resort-graph`, `snapshot-resort`), which the gateway
/// cannot import. The gateway checks the key and the session and hands over the call;
/// the handler answers in the app's shape.
///
/// A function may hand out URLs to its artifacts (`call.signedURL`): they are fetched
/// as they are, with no key, as `GET /functions/v1/{name}/{path…}?token=`, and reach
/// the handler as a `download` once the token names exactly that path.
public struct EdgeFunction: Sendable {
    public typealias Handler = @Sendable (EdgeFunctionCall) async -> HTTPResponse

    public let name: String
    public let handler: Handler

    public init(name: String, handler: @escaping Handler) {
        self.name = name
        self.handler = handler
    }
}

/// One call of an `EdgeFunction`.
public struct EdgeFunctionCall: Sendable {
    public enum Kind: Sendable {
        /// `POST /functions/v1/{name}` with the caller's key or session.
        case invoke(RequestCaller)
        /// `GET /functions/v1/{name}/{path…}?token=` of a URL the function signed, as its signer.
        case download([String], signer: RequestCaller)
    }

    public let kind: Kind
    public let request: HTTPRequest
    /// `{public URL}/functions/v1/{name}`.
    public let baseURL: String
    let token: SignedURLToken
    let name: String
    let now: Date

    /// A keyless URL to `path` under the function, valid for `seconds`, signed as `signer`.
    public func signedURL(_ path: [String], expiresIn seconds: Int, signer: RequestCaller) -> String {
        let escaped = path.map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? $0 }
        let signature = token.sign(url: ([name] + path).joined(separator: "/"), expiresIn: seconds, signer: signer, now: now)
        return baseURL + "/" + escaped.joined(separator: "/") + "?token=" + signature
    }

    /// The request's body as a JSON object; nil when it is not one.
    public var jsonObject: [String: Any]? { JSONText.parse(request.body) as? [String: Any] }

    /// An answer in the functions' error shape, `{"error": message}`.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, object: ["error": message])
    }

    /// A JSON answer.
    public static func json(_ status: Int, _ object: [String: Any], headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        .json(status, object: object, headers: headers)
    }
}
