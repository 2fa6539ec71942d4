import Foundation
import JSONDepth

/// A response the gateway sends: status, headers and a whole body.
///
/// `Content-Length`, `Connection` and `Date` are added when it is written, so
/// handlers set only what is theirs.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body already serialized (PostgreSQL's text, usually).
    public static func json(_ status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("content-type", "application/json; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// A JSON body from a Foundation value (dictionaries, arrays, strings, numbers, NSNull).
    public static func json(_ status: Int, object: Any, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        json(status, JSONText.serialize(object), headers: headers)
    }

    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "text/plain; charset=utf-8"], body: Array((text + "\n").utf8))
    }

    /// The head and body as bytes on the wire.
    func serialized(keepAlive: Bool, includeBody: Bool, date: String) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        // A switch of protocols keeps its own Connection: Upgrade; every other answer says keep-alive or close.
        let switching = status == 101
        for (name, value) in headers.fields where name != "content-length" && (switching || name != "connection") {
            head += Self.canonicalName(name) + ": " + value + "\r\n"
        }
        if Self.carriesBody(status) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "Date: " + date + "\r\n"
        if !switching { head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if includeBody && Self.carriesBody(status) { bytes += body }
        return bytes
    }

    /// 1xx, 204 and 304 carry no body and no length.
    static func carriesBody(_ status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }

    /// `content-type` → `Content-Type`, for clients that care about appearance.
    static func canonicalName(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: "-")
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}

/// Compact JSON text of Foundation values, keys sorted so answers are stable.
public enum JSONText {
    public static func serialize(_ object: Any) -> String {
        guard JSONSerialization.isValidJSONObject(object) || object is String || object is NSNumber || object is NSNull,
              let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A parsed JSON document (objects as `[String: Any]`), or nil when it is not
    /// JSON or nests deeper than `JSONDepth.limit` (request bodies deeper than that
    /// are refused by name before a service reads them).
    public static func parse(_ bytes: [UInt8]) -> Any? {
        guard (try? JSONDepth.check(bytes)) != nil else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    public static func parse(_ text: String) -> Any? { parse(Array(text.utf8)) }

    /// `"text"` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
