#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Foundation

/// Thin, throwing wrappers over the POSIX socket calls the server makes.
enum Socket {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// A non-blocking TCP listener on `host:port` (port 0: any free one). With
    /// `reusePort`, several processes can listen on the same port and the kernel
    /// spreads connections between them.
    static func listen(host: String, port: Int, backlog: Int32 = 4096, reusePort: Bool) throws -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &info)
        guard status == 0, let first = info else {
            throw Failure(call: "getaddrinfo(\(host))", code: status == EAI_SYSTEM ? errno : EINVAL)
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if reusePort {
            setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "bind(\(host):\(port))", code: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "listen", code: code)
        }
        return (fd, try localPort(of: fd))
    }

    static func localPort(of fd: Int32) throws -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw Failure(call: "getsockname", code: errno) }
        return port(of: storage)
    }

    static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return 0
        }
    }

    /// `address:port` of a peer, for logs.
    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let length = socklen_t(storage.ss_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard status == 0 else { return "?" }
        let hostText = host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return "\(hostText):\(port(of: storage))"
    }

    /// The next pending connection, non-blocking; nil when there is none.
    static func accept(_ listener: Int32) throws -> (fd: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            }
        }
        if fd < 0 {
            switch errno {
            case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: return nil
            default: throw Failure(call: "accept4", code: errno)
            }
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return (fd, describe(storage))
    }

    enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case closed
        case failed(Int32)
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    enum WriteResult {
        case wrote(Int)
        case wouldBlock
        case failed(Int32)
    }

    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> WriteResult {
        while true {
            let n = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .wrote(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Raises the open-file limit to its hard maximum: each client is a descriptor.
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }
}
