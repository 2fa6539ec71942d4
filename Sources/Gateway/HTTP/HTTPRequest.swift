import Foundation

/// A whole request: its head, and its body once read (chunked bodies arrive decoded).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target as sent: path and query, still percent-encoded.
    public var target: String
    /// `HTTP/1.1` → 1, `HTTP/1.0` → 0.
    public var minorVersion: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The peer's address, for logs.
    public var remoteAddress: String

    public init(method: HTTPMethod, target: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders(),
                body: [UInt8] = [], remoteAddress: String = "") {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The path before `?`, still percent-encoded.
    public var rawPath: Substring {
        target.firstIndex(of: "?").map { target[..<$0] } ?? target[...]
    }

    /// The path, percent-decoded (nil when the encoding is broken).
    public var path: String? { URLQuery.percentDecode(rawPath, plusAsSpace: false) }

    /// What follows `?`, still encoded.
    public var rawQuery: Substring {
        guard let mark = target.firstIndex(of: "?") else { return "" }
        return target[target.index(after: mark)...]
    }

    /// The query's `name=value` pairs in order, decoded (nil when the encoding is broken).
    public var queryItems: [(name: String, value: String)]? { URLQuery.parse(rawQuery) }

    /// Whether the client wants the connection kept open after this exchange.
    public var keepAlive: Bool {
        let connection = headers.tokens("connection")
        if connection.contains("close") { return false }
        return minorVersion >= 1 || connection.contains("keep-alive")
    }

    /// The bearer token of `Authorization`, if any.
    public var bearerToken: String? {
        guard let value = headers["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
