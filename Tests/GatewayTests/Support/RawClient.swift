#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Gateway

/// A TCP client that sends exact bytes and reads what comes back, for testing the
/// server with well-formed and hostile input alike. Non-blocking: waiting is
/// `Task.sleep`, so tests never hold a thread of the cooperative pool.
final class RawClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        // The descriptor becomes the client's only once connected: a client that was
        // never made must not reach `deinit`, which would close the number a second
        // time — by then perhaps another thread's socket.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(code)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends every byte (waiting while the socket is full). Returns false if the server closed.
    @discardableResult
    func send(_ bytes: [UInt8]) async -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try? await Task.sleep(for: .milliseconds(2))
            } else {
                return false
            }
        }
        return true
    }

    @discardableResult
    func send(_ text: String) async -> Bool { await send(Array(text.utf8)) }

    /// Reads what is available into the buffer; false once the server has closed.
    private func fill() -> Bool? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer += chunk[0..<n]
            return true
        }
        if n == 0 { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
        return false
    }

    /// Waits until `count` bytes are buffered (or the server closes / time runs out) and takes them.
    func read(exactly count: Int, timeout: Duration = .seconds(30)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while buffer.count < count {
            switch fill() {
            case true?: continue
            case false?: throw Failure(description: "the server closed after \(buffer.count) of \(count) bytes")
            case nil:
                guard ContinuousClock.now < deadline else { throw Failure(description: "timed out waiting for \(count) bytes") }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// Whether the server closes the connection within `timeout` (reading and discarding meanwhile).
    func waitForClose(timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            switch fill() {
            case false?: return true
            case true?: continue
            case nil: try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return false
    }

    /// Reads one HTTP response: status, headers (lowercased names) and body (by Content-Length).
    func readResponse(toHead: Bool = false, timeout: Duration = .seconds(30)) async throws -> RawResponse {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(statusLine)") }
                var headers: [String: String] = [:]
                var fields: [(name: String, value: String)] = []
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    let name = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    headers[name] = value
                    fields.append((name, value))
                }
                buffer.removeFirst(end + 4)
                let length = (toHead || status == 101 || status == 204 || status == 304 || status < 200) ? 0 : Int(headers["content-length"] ?? "0") ?? 0
                let body = try await read(exactly: length, timeout: deadline - ContinuousClock.now)
                return RawResponse(status: status, headers: headers, body: body, fields: fields)
            }
            switch fill() {
            case true?: continue
            case false?: throw Failure(description: "the server closed before a whole response (\(buffer.count) bytes buffered)")
            case nil:
                guard ContinuousClock.now < deadline else { throw Failure(description: "timed out waiting for a response") }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Reads one server frame (unmasked).
    func readFrame(timeout: Duration = .seconds(30)) async throws -> WebSocketFrame {
        let head = try await read(exactly: 2, timeout: timeout)
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let bytes = try await read(exactly: 2, timeout: timeout)
            length = Int(bytes[0]) << 8 | Int(bytes[1])
        } else if length == 127 {
            let bytes = try await read(exactly: 8, timeout: timeout)
            length = bytes.reduce(0) { $0 << 8 | Int($1) }
        }
        let payload = try await read(exactly: length, timeout: timeout)
        return WebSocketFrame(fin: head[0] & 0x80 != 0, opcode: WebSocketFrame.Opcode(rawValue: head[0] & 0x0F)!, payload: payload)
    }

    /// Upgrades this connection to a WebSocket at `path`; returns the 101 response.
    func upgrade(_ path: String, headers: [String: String] = [:]) async throws -> RawResponse {
        var request = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        await send(request + "\r\n")
        return try await readResponse()
    }

    func sendFrame(_ frame: WebSocketFrame) async {
        await send(frame.encodedMasked(key: [0x12, 0x34, 0x56, 0x78]))
    }

    func sendText(_ text: String) async {
        await sendFrame(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    }
}

struct RawResponse {
    var status: Int
    /// The last value of each header (by lowercased name).
    var headers: [String: String]
    var body: [UInt8]
    /// Every header line in order, repeated ones included (`Set-Cookie`).
    var fields: [(name: String, value: String)] = []
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
}
