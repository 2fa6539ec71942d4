import Foundation

/// What to do with a notification after one attempt, from APNs's answer
/// (its status and `reason`) or the transport's failure.
public enum APNsOutcome: Sendable, Equatable {
    /// 200: APNs has it.
    case delivered
    /// 410 Unregistered (or ExpiredToken): the app is gone from that device; forget the token.
    case deadToken(reason: String)
    /// Worth another attempt later: throttling, server trouble, an expired provider
    /// token, or no connection. `after` is a server-given wait in seconds.
    case retry(reason: String, after: Int?)
    /// Will never succeed as sent (a malformed request, a token for another app or environment).
    case giveUp(reason: String)

    /// The outcome of an HTTP answer from APNs.
    public static func classify(status: Int, reason: String?, retryAfter: String? = nil) -> APNsOutcome {
        let reason = reason ?? "HTTP \(status)"
        switch status {
        case 200:
            return .delivered
        case 410:
            return .deadToken(reason: reason)
        case 400 where reason == "ExpiredToken":
            return .deadToken(reason: reason)
        case 429, 500...599:
            return .retry(reason: reason, after: retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        case 403:
            // ExpiredProviderToken heals with a new token; the other 403s (a wrong key or
            // team) heal when the operator fixes the configuration: retried until the limit.
            return .retry(reason: reason, after: nil)
        case 400, 404, 405, 413:
            return .giveUp(reason: reason)
        default:
            return .retry(reason: reason, after: nil)
        }
    }
}

/// APNs's answer to one request.
public struct APNsResponse: Sendable, Equatable {
    public var status: Int
    /// The `reason` of an error body (`{"reason": "BadDeviceToken"}`).
    public var reason: String?
    public var apnsID: String?
    public var outcome: APNsOutcome

    init(_ response: HTTPResponse) {
        status = response.status
        apnsID = response.header("apns-id")
        let body = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        reason = body?["reason"] as? String
        outcome = APNsOutcome.classify(status: status, reason: reason, retryAfter: response.header("retry-after"))
    }
}
