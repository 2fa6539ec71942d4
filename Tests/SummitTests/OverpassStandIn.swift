import Foundation

/// An Overpass API interpreter on loopback for `summit resort fetch`: it takes
/// only a query posted as a form (`data=…`) in Overpass JSON (`[out:json]`)
/// that names the expected box and comes with a User-Agent naming Summit —
/// anything else gets the 400 and HTML error page Overpass answers a bad
/// query with — and answers with its script of replies, one per request, the
/// last one repeating.
final class OverpassStandIn: @unchecked Sendable {
    static let path = "/api/interpreter"

    private let server: LoopbackHTTPServer
    private let lock = NSLock()
    private var script: [LoopbackHTTPServer.Reply]
    private var served = 0

    var url: String { server.url(Self.path) }

    /// The queries received, decoded, in order.
    var queries: [String] {
        server.requestsReceived(to: Self.path).map { Self.query(in: $0.body) ?? "" }
    }

    /// `box` as the query must write it: `S,W,N,E`.
    init(box: String, script: [LoopbackHTTPServer.Reply]) throws {
        precondition(!script.isEmpty)
        self.server = try LoopbackHTTPServer()
        self.script = script
        server.respond(Self.path) { [self] request in
            let query = Self.query(in: request.body) ?? ""
            var problems: [String] = []
            if request.method != "POST" { problems.append("expected a POST, got \(request.method)") }
            if !query.hasPrefix("[out:json]") { problems.append("the query does not ask for [out:json]") }
            if !query.contains("(\(box))") { problems.append("the query does not name the box (\(box))") }
            if !(request.headers["user-agent"] ?? "").contains("Summit") { problems.append("the User-Agent does not name Summit") }
            guard problems.isEmpty else {
                return LoopbackHTTPServer.Reply(status: 400, headers: [("Content-Type", "text/html")], body: Array("""
                    <html><body><p><strong style="color:#FF0000">Error</strong>: \(problems.joined(separator: "; ")) </p></body></html>
                    """.utf8))
            }
            return lock.withLock {
                defer { served += 1 }
                return self.script[min(served, self.script.count - 1)]
            }
        }
    }

    func stop() { server.stop() }

    /// The `data` field of a form body.
    static func query(in body: [UInt8]) -> String? {
        String(decoding: body, as: UTF8.self).split(separator: "&")
            .first { $0.hasPrefix("data=") }
            .flatMap { $0.dropFirst(5).replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
    }

    // MARK: replies

    static func answer(_ bytes: [UInt8]) -> LoopbackHTTPServer.Reply {
        LoopbackHTTPServer.Reply(status: 200, body: bytes)
    }

    static func busy(_ status: Int = 429, retryAfter seconds: Int) -> LoopbackHTTPServer.Reply {
        LoopbackHTTPServer.Reply(status: status, headers: [("Retry-After", "\(seconds)")], body: Array("rate limited".utf8))
    }

    static let hang = LoopbackHTTPServer.Reply(status: 200, body: [], hang: true)

    /// The first `fraction` of `bytes`, then the connection closes.
    static func truncated(_ bytes: [UInt8], fraction: Double) -> LoopbackHTTPServer.Reply {
        LoopbackHTTPServer.Reply(status: 200, body: Array(bytes.prefix(Int(Double(bytes.count) * fraction))), closeDelimited: true)
    }

    /// `bytes` (an Overpass JSON document) with the remark Overpass appends when a query fails part-way.
    static func withRemark(_ bytes: [UInt8], _ remark: String) -> LoopbackHTTPServer.Reply {
        var text = String(decoding: bytes, as: UTF8.self)
        let close = text.range(of: "}", options: .backwards)!
        let escaped = remark.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        text.replaceSubrange(close, with: ",\n\"remark\": \"\(escaped)\"\n}")
        return LoopbackHTTPServer.Reply(status: 200, body: Array(text.utf8))
    }
}
