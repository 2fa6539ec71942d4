/// What the server asks of the application: a body limit per route, then an answer per request.
public protocol HTTPResponder: Sendable {
    /// The largest body a request to `path` may carry (uploads get more than JSON).
    func bodyLimit(method: HTTPMethod, path: Substring) -> Int
    /// The answer to a whole request. Runs on Swift's cooperative pool, never on the loop.
    func respond(to request: HTTPRequest) async -> HTTPReply
}

/// A handler's answer: a response, or a switch to WebSocket with the session to run.
public enum HTTPReply: Sendable {
    case response(HTTPResponse)
    /// Sends the 101 and runs `session` with the upgraded connection until it returns.
    case upgrade(HTTPResponse, session: @Sendable (WebSocket) async -> Void)
}
