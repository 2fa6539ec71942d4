import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: each path answers a
/// configured status and body, or whatever its handler makes of the request,
/// one request per connection, each connection on a thread of its own. It
/// stands in for a vendor's feed, Open-Meteo or an Overpass server on a
/// machine without internet, failures included: a reply may come late or
/// never, or stop short of its body.
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        /// Lower-case names.
        var headers: [String: String]
        var body: [UInt8]
    }

    struct Reply: Sendable {
        var status: Int
        var headers: [(name: String, value: String)] = []
        var body: [UInt8]
        /// Never answer: hold the connection until the client gives up and closes it.
        var hang = false
        /// Send no Content-Length and end the body by closing, as a server that stops mid-answer does.
        var closeDelimited = false

        init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8], hang: Bool = false, closeDelimited: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.hang = hang
            self.closeDelimited = closeDelimited
        }
    }

    private let lock = NSLock()
    private var handlers: [String: @Sendable (Request) -> Reply] = [:]
    private var received: [String: [Request]] = [:]
    private let listener: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        // Only this thread closes the listener, after accept fails: `stop` merely shuts it
        // down, so the number is never closed while accept may still use it (and never
        // twice), which could otherwise hit another thread's newer socket.
        Thread.detachNewThread { [weak self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    break
                }
                guard let self else { close(client); break }
                Thread.detachNewThread { self.serve(client) }
            }
            close(fd)
        }
    }

    deinit { stop() }

    private var stopped = false

    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func answer(_ path: String, status: Int = 200, body: String) {
        let reply = Reply(status: status, body: Array(body.utf8))
        respond(path) { _ in reply }
    }

    /// Answers each request to `path` with what `handler` makes of it.
    func respond(_ path: String, with handler: @escaping @Sendable (Request) -> Reply) {
        lock.withLock { handlers[path] = handler }
    }

    func requests(to path: String) -> Int { lock.withLock { received[path]?.count ?? 0 } }

    /// Every request to `path` so far, in order.
    func requestsReceived(to path: String) -> [Request] { lock.withLock { received[path] ?? [] } }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = Self.readRequest(client) else { return }
        let handler = lock.withLock { () -> (@Sendable (Request) -> Reply)? in
            received[request.path, default: []].append(request)
            return handlers[request.path]
        }
        let reply = handler?(request) ?? Reply(status: 404, body: Array("not found".utf8))
        if reply.hang {
            // Until the client closes (read answers 0) or a minute passes.
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var scratch = [UInt8](repeating: 0, count: 256)
            while read(client, &scratch, scratch.count) > 0 {}
            return
        }
        var head = "HTTP/1.1 \(reply.status) Status\r\nContent-Type: application/json\r\nConnection: close\r\n"
        if !reply.closeDelimited { head += "Content-Length: \(reply.body.count)\r\n" }
        for header in reply.headers { head += "\(header.name): \(header.value)\r\n" }
        let response = Array((head + "\r\n").utf8) + reply.body
        var offset = 0
        while offset < response.count {
            // MSG_NOSIGNAL: a client that has gone away must not raise SIGPIPE in the test process.
            let written = response[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The request line, headers and a Content-Length body; nil when the client leaves first.
    private static func readRequest(_ client: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        while headEnd == nil {
            let count = Glibc.read(client, &buffer, buffer.count)
            if count <= 0 { return nil }
            bytes.append(contentsOf: buffer[0..<count])
            headEnd = bytes.headEnd
        }
        let head = String(decoding: bytes[0..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        var body = Array(bytes[(headEnd! + 4)...])
        while body.count < length {
            let count = Glibc.read(client, &buffer, buffer.count)
            if count <= 0 { return nil }
            body.append(contentsOf: buffer[0..<count])
        }
        return Request(method: requestLine.first.map(String.init) ?? "", path: requestLine.count > 1 ? String(requestLine[1]) : "/",
                       headers: headers, body: body)
    }
}

private extension [UInt8] {
    /// Where the blank line that ends the head starts.
    var headEnd: Int? {
        guard count >= 4 else { return nil }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return index
        }
        return nil
    }
}
