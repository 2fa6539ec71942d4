/// Reads HTTP/1.1 requests from a byte stream, one state at a time.
///
/// Strict by design, since whatever it lets through reaches the handlers: lines end
/// in CRLF (a bare CR or LF is refused), no folded headers, no whitespace before a
/// header's colon, one framing per request (a `Content-Length` beside
/// `Transfer-Encoding` is refused, as are differing lengths), chunked as the only
/// transfer coding, and every part bounded by `HTTPLimits`. Bodies may arrive in
/// chunks; the request is handed over whole, decoded.
public struct HTTPRequestParser: Sendable {
    public enum Event: Sendable {
        /// The head asked for `Expect: 100-continue` and its body is acceptable: say so.
        case continueExpected
        case request(HTTPRequest)
    }

    /// The head of the request being read, once it is in.
    struct Head: Sendable {
        var method: HTTPMethod
        var target: String
        var minorVersion: Int
        var headers: HTTPHeaders
    }

    enum State: Sendable {
        /// Looking for the blank line; `scanned` bytes already checked.
        case head(scanned: Int)
        case fixedBody(Head, remaining: Int)
        case chunkSize(Head)
        case chunkData(Head, remaining: Int)
        /// The CRLF after a chunk's data.
        case chunkDataEnd(Head)
        /// Trailer fields after the last chunk, up to a blank line.
        case trailers(Head, scanned: Int)
        /// An error was reported; nothing more is read.
        case failed
    }

    public let limits: HTTPLimits
    /// The largest body a request may carry, decided from its head (uploads get more).
    let bodyLimit: @Sendable (HTTPMethod, Substring) -> Int
    private(set) var state: State = .head(scanned: 0)
    private var body: [UInt8] = []
    private var bodyLimitForCurrent = 0
    public var remoteAddress = ""

    public init(limits: HTTPLimits = HTTPLimits(),
                bodyLimit: @escaping @Sendable (HTTPMethod, Substring) -> Int = { _, _ in Int.max }) {
        self.limits = limits
        self.bodyLimit = bodyLimit
    }

    /// Whether a request has begun and is not yet complete (for choosing the right timeout).
    public var isInsideRequest: Bool {
        if case .head(let scanned) = state { return scanned > 0 }
        return true
    }

    /// Whether the head is in and the body is being read.
    public var isReadingBody: Bool {
        switch state {
        case .head, .failed: false
        default: true
        }
    }

    /// Consumes what it can from `input` and returns the next event, or nil when it needs more bytes.
    mutating func next(from input: inout InputBuffer) throws(HTTPParseError) -> Event? {
        while true {
            switch state {
            case .failed:
                return nil
            case .head(let scanned):
                guard let end = try findHeadEnd(in: &input, from: scanned) else { return nil }
                let headBytes = input.read(end)
                input.consume(4)
                do {
                    let head = try Self.parseHead(headBytes, limits: limits)
                    if let event = try beginBody(head) { return event }
                } catch {
                    state = .failed
                    throw error
                }
            case .fixedBody(let head, let remaining):
                let take = min(remaining, input.count)
                body.append(contentsOf: input.read(take))
                if take == remaining { return finish(head) }
                state = .fixedBody(head, remaining: remaining - take)
                return nil
            case .chunkSize(let head):
                guard let lineEnd = try lineEnd(in: input, limit: 1024, what: "chunk size line") else { return nil }
                let line = input.read(lineEnd)
                input.consume(2)
                let size: Int
                do { size = try Self.chunkSize(line) } catch { throw failure(error) }
                if size == 0 {
                    state = .trailers(head, scanned: 0)
                } else {
                    guard size <= bodyLimitForCurrent - body.count else {
                        throw failure(HTTPParseError(413, "the request body is larger than \(bodyLimitForCurrent) bytes"))
                    }
                    state = .chunkData(head, remaining: size)
                }
            case .chunkData(let head, let remaining):
                let take = min(remaining, input.count)
                guard take > 0 else { return nil }
                body.append(contentsOf: input.read(take))
                state = take == remaining ? .chunkDataEnd(head) : .chunkData(head, remaining: remaining - take)
            case .chunkDataEnd(let head):
                guard input.count >= 2 else { return nil }
                guard input[0] == CR, input[1] == LF else {
                    throw failure(.bad("a chunk's data must be followed by CRLF"))
                }
                input.consume(2)
                state = .chunkSize(head)
            case .trailers(let head, let scanned):
                // An empty trailer section is just CRLF; otherwise fields end in a blank line.
                if input.count >= 2, scanned == 0, input[0] == CR, input[1] == LF {
                    input.consume(2)
                    return finish(head)
                }
                guard let end = try findHeadEnd(in: &input, from: scanned, what: "trailer section") else { return nil }
                let trailer = input.read(end)
                input.consume(4)
                for line in Self.lines(trailer) {
                    do { _ = try Self.parseField(line) } catch { throw failure(error) }
                }
                return finish(head)
            }
        }
    }

    private mutating func beginBody(_ head: Head) throws(HTTPParseError) -> Event? {
        let transferEncoding = head.headers.values("transfer-encoding")
        let contentLengths = head.headers.values("content-length")
        bodyLimitForCurrent = min(bodyLimit(head.method, Self.pathPart(of: head.target)), Int(Int32.max))
        body = []
        let expectsContinue = head.headers["expect"].map { $0.lowercased() == "100-continue" } ?? false
        if let expect = head.headers["expect"], expect.lowercased() != "100-continue" {
            throw HTTPParseError(417, "Expect: \(expect) is not supported (only 100-continue is)")
        }
        if !transferEncoding.isEmpty {
            guard contentLengths.isEmpty else {
                throw HTTPParseError.bad("a request may not carry both Content-Length and Transfer-Encoding")
            }
            guard head.minorVersion == 1 else { throw HTTPParseError.bad("Transfer-Encoding needs HTTP/1.1") }
            let codings = head.headers.tokens("transfer-encoding")
            guard codings == ["chunked"] else {
                throw HTTPParseError(501, "only Transfer-Encoding: chunked is supported, not \(codings.joined(separator: ", "))")
            }
            state = .chunkSize(head)
            return expectsContinue ? .continueExpected : nil
        }
        if !contentLengths.isEmpty {
            guard Set(contentLengths).count == 1, let text = contentLengths.first,
                  !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let length = Int(text)
            else {
                throw HTTPParseError.bad("Content-Length must be one decimal number")
            }
            guard length <= bodyLimitForCurrent else {
                throw HTTPParseError(413, "the request body is larger than \(bodyLimitForCurrent) bytes")
            }
            if length == 0 {
                state = .fixedBody(head, remaining: 0)
                return .request(takeRequest(head))
            }
            state = .fixedBody(head, remaining: length)
            return expectsContinue ? .continueExpected : nil
        }
        state = .fixedBody(head, remaining: 0)
        return .request(takeRequest(head))
    }

    private mutating func finish(_ head: Head) -> Event {
        .request(takeRequest(head))
    }

    private mutating func takeRequest(_ head: Head) -> HTTPRequest {
        let request = HTTPRequest(method: head.method, target: head.target, minorVersion: head.minorVersion,
                                  headers: head.headers, body: body, remoteAddress: remoteAddress)
        body = []
        state = .head(scanned: 0)
        return request
    }

    private mutating func failure(_ error: HTTPParseError) -> HTTPParseError {
        state = .failed
        return error
    }

    // MARK: - Scanning

    /// The offset of `CRLF CRLF` ending the head, or nil if it is not in yet.
    /// Bare LFs and CRs are refused; so is a head longer than the limit.
    private mutating func findHeadEnd(in input: inout InputBuffer, from scanned: Int,
                                      what: String = "request head") throws(HTTPParseError) -> Int? {
        if case .head = state, scanned == 0 {
            // Empty lines before a request line are tolerated (RFC 9112 §2.2), a few of them.
            var skipped = 0
            while input.count >= 2, input[0] == CR, input[1] == LF, skipped < 4 {
                input.consume(2)
                skipped += 1
            }
        }
        var i = scanned
        while i < input.count, i <= limits.maxHeadBytes {
            let byte = input[i]
            if byte == LF {
                guard i > 0, input[i - 1] == CR else { throw failure(.bad("lines must end in CRLF, not a bare LF")) }
                if i >= 3, input[i - 2] == LF, input[i - 3] == CR { return i - 3 }
            } else if byte == CR, i + 1 < input.count, input[i + 1] != LF {
                throw failure(.bad("a CR must be followed by LF"))
            } else if byte == 0 {
                throw failure(.bad("NUL bytes are not allowed in a \(what)"))
            }
            i += 1
        }
        if i > limits.maxHeadBytes {
            // Say which part is too long: the request line, or the fields.
            if case .head = state, (input.firstIndex(of: LF, from: 0) ?? Int.max) > limits.maxTargetBytes + 32 {
                throw failure(HTTPParseError(414, "the request line is longer than \(limits.maxTargetBytes) bytes"))
            }
            throw failure(HTTPParseError(431, "the \(what) is larger than \(limits.maxHeadBytes) bytes"))
        }
        // Resume where the terminator could still start.
        switch state {
        case .head: state = .head(scanned: max(0, i - 3))
        case .trailers(let head, _): state = .trailers(head, scanned: max(0, i - 3))
        default: break
        }
        return nil
    }

    /// The offset of the CRLF ending the current line, if it is in; lines longer than `limit` are refused.
    private mutating func lineEnd(in input: InputBuffer, limit: Int, what: String) throws(HTTPParseError) -> Int? {
        var i = 0
        while i < input.count {
            let byte = input[i]
            if byte == CR {
                guard i + 1 < input.count else { return nil }
                guard input[i + 1] == LF else { throw failure(.bad("a CR must be followed by LF in the \(what)")) }
                return i
            }
            if byte == LF { throw failure(.bad("the \(what) must end in CRLF, not a bare LF")) }
            i += 1
            if i > limit { throw failure(.bad("the \(what) is longer than \(limit) bytes")) }
        }
        return nil
    }

    // MARK: - Parsing pieces

    static func parseHead(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits) throws(HTTPParseError) -> Head {
        let lines = Self.lines(bytes)
        guard let requestLine = lines.first else { throw .bad("the request line is missing") }
        let parts = requestLine.split(separator: SP, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .bad("the request line must be METHOD SP TARGET SP HTTP/1.1")
        }
        let methodBytes = parts[0], targetBytes = parts[1], versionBytes = parts[2]
        guard !methodBytes.isEmpty, methodBytes.count <= 16, methodBytes.allSatisfy(isTokenByte) else {
            throw .bad("the method is not a valid token")
        }
        guard let method = HTTPMethod(rawValue: String(decoding: methodBytes, as: UTF8.self)) else {
            throw HTTPParseError(501, "method \(String(decoding: methodBytes, as: UTF8.self)) is not supported")
        }
        guard targetBytes.count <= limits.maxTargetBytes else {
            throw HTTPParseError(414, "the request target is longer than \(limits.maxTargetBytes) bytes")
        }
        guard targetBytes.first == UInt8(ascii: "/"), targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .bad("the request target must be an absolute path (starting with /) of visible ASCII")
        }
        let minor: Int
        switch String(decoding: versionBytes, as: UTF8.self) {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        case let other where other.hasPrefix("HTTP/") && other.count == 8:
            throw HTTPParseError(505, "\(other) is not supported: speak HTTP/1.1")
        default:
            throw .bad("the request line must end in HTTP/1.1")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            headers.add(contentsOf: try parseField(line))
            if headers.count > limits.maxHeaderCount {
                throw HTTPParseError(431, "more than \(limits.maxHeaderCount) header fields")
            }
        }
        if minor == 1 {
            let hosts = headers.values("host")
            guard hosts.count == 1 else { throw .bad("an HTTP/1.1 request needs exactly one Host header") }
        }
        return Head(method: method, target: String(decoding: targetBytes, as: UTF8.self), minorVersion: minor, headers: headers)
    }

    /// `name: value` with a token name, no whitespace before the colon, no control characters.
    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String) {
        if let first = line.first, first == SP || first == HTAB {
            throw .bad("folded header lines (obs-fold) are not accepted")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .bad("a header line has no colon")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw .bad("a header name is empty or holds characters a token may not (whitespace before the colon?)")
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == SP || first == HTAB { value = value.dropFirst() }
        while let last = value.last, last == SP || last == HTAB { value = value.dropLast() }
        guard value.allSatisfy({ $0 == HTAB || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .bad("header \(String(decoding: name, as: UTF8.self)) holds control characters")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// A chunk-size line: 1–15 hex digits, then optional `;extensions`.
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }
        let trimmed = digits.reversed().drop { $0 == SP || $0 == HTAB }.reversed()
        guard !trimmed.isEmpty, trimmed.count <= 15 else { throw .bad("a chunk size must be 1 to 15 hex digits") }
        var size = 0
        for byte in trimmed {
            guard let value = URLQuery.hexValue(byte) else { throw .bad("a chunk size must be hexadecimal") }
            size = size << 4 | Int(value)
        }
        let extensions = line.dropFirst(digits.count)
        guard extensions.allSatisfy({ $0 == HTAB || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .bad("a chunk extension holds control characters")
        }
        return size
    }

    /// Splits on CRLF (the scanner already refused bare CR and LF).
    static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == CR, i + 1 < bytes.endIndex, bytes[i + 1] == LF {
                lines.append(bytes[start..<i])
                i += 2
                start = i
            } else {
                i += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    static func pathPart(of target: String) -> Substring {
        target.firstIndex(of: "?").map { target[..<$0] } ?? target[...]
    }

    /// RFC 9110 tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}

let CR = UInt8(ascii: "\r")
let LF = UInt8(ascii: "\n")
let SP = UInt8(ascii: " ")
let HTAB = UInt8(ascii: "\t")

extension HTTPHeaders {
    mutating func add(contentsOf field: (String, String)) { add(field.0, field.1) }
}
