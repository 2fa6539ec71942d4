import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for feed tests: each path answers a
/// configured status and body, one request per connection. It stands in for
/// a vendor's feed or Open-Meteo on a machine without internet.
final class LoopbackHTTPServer: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: (status: Int, body: [UInt8])] = [:]
    private var requestCounts: [String: Int] = [:]
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
                self?.serve(client)
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
        lock.withLock { routes[path] = (status, Array(body.utf8)) }
    }

    func requests(to path: String) -> Int { lock.withLock { requestCounts[path] ?? 0 } }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.containsHeadEnd {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            head.append(contentsOf: buffer[0..<count])
        }
        let requestLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let path = requestLine.count > 1 ? String(requestLine[1]) : "/"
        let route = lock.withLock { () -> (status: Int, body: [UInt8])? in
            requestCounts[path, default: 0] += 1
            return routes[path]
        } ?? (404, Array("not found".utf8))
        var response = Array("HTTP/1.1 \(route.status) Status\r\nContent-Type: application/json\r\nContent-Length: \(route.body.count)\r\nConnection: close\r\n\r\n".utf8)
        response += route.body
        var offset = 0
        while offset < response.count {
            let written = response[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}

private extension [UInt8] {
    var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
