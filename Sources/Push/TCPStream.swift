#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A TCP connection with a connect timeout and an I/O timeout (SO_RCVTIMEO /
/// SO_SNDTIMEO), so a peer that stops answering costs a bounded wait.
final class TCPStream: ByteStream {
    let descriptor: Int32
    private var closed = false

    init(host: String, port: Int, timeout: Duration) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTP2Error.connectionLost("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            if Self.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen, timeout: timeout, error: &lastError) {
                descriptor = socket
                try configure(timeout: timeout)
                return
            }
            Glibc.close(socket)
        }
        throw HTTP2Error.connectionLost("cannot connect to \(host):\(port): \(lastError)")
    }

    /// A non-blocking connect that waits at most `timeout`, then back to blocking.
    private static func connect(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: socklen_t,
                                timeout: Duration, error: inout String) -> Bool {
        let flags = fcntl(socket, F_GETFL)
        _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(socket, F_SETFL, flags) }
        if Glibc.connect(socket, address, length) == 0 { return true }
        guard errno == EINPROGRESS else {
            error = String(cString: strerror(errno))
            return false
        }
        var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(timeout.milliseconds))
        guard ready > 0 else {
            error = ready == 0 ? "no answer within \(timeout)" : String(cString: strerror(errno))
            return false
        }
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &size)
        guard code == 0 else {
            error = String(cString: strerror(code))
            return false
        }
        return true
    }

    private func configure(timeout: Duration) throws {
        var interval = timeval(tv_sec: Int(timeout.milliseconds / 1000), tv_usec: Int(timeout.milliseconds % 1000) * 1000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw HTTP2Error.connectionLost(errno == EAGAIN ? "the peer stopped reading" : String(cString: strerror(errno)))
            }
            offset += sent
        }
    }

    func read(into buffer: inout [UInt8], maximum: Int) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HTTP2Error.connectionLost(errno == EAGAIN ? "no answer within the I/O timeout" : String(cString: strerror(errno)))
            }
            buffer += chunk[0..<count]
            return count
        }
    }

    func hasPendingInput() -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    deinit { close() }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
