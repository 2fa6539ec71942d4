#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The loop-side state of a server: its listener, its connections, its counters.
/// Touched only on the loop thread.
final class GatewayServerCore: EventHandler, @unchecked Sendable {
    let loop: EventLoop
    let options: ServerOptions
    let responder: any HTTPResponder
    private(set) var listener: Int32 = -1
    private(set) var port = 0
    private var connections: [ObjectIdentifier: Connection] = [:]
    /// One read buffer for every connection: reads happen one at a time on the loop.
    var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    var statistics = ServerStatistics()
    var inFlight = 0
    var webSockets = 0
    private(set) var isDraining = false
    private var cachedDate: (second: Int, text: String) = (0, "")

    init(loop: EventLoop, options: ServerOptions, responder: any HTTPResponder) {
        self.loop = loop
        self.options = options
        self.responder = responder
    }

    func listen() throws {
        let (fd, port) = try Socket.listen(host: options.host, port: options.port, reusePort: options.reusePort)
        listener = fd
        self.port = port
    }

    /// Starts watching the listener and the clock (on the loop).
    func activate() {
        loop.register(listener, self, readable: true, writable: false)
        loop.onTick { [self] in
            let now = Monotonic.nanoseconds()
            for connection in Array(connections.values) { connection.checkDeadlines(now: now) }
        }
    }

    // The listener is readable: accept everything pending.
    func ready(readable: Bool, writable: Bool, hangup: Bool) {
        guard listener >= 0 else { return }
        for _ in 0..<256 {
            let accepted: (fd: Int32, peer: String)?
            do {
                accepted = try Socket.accept(listener)
            } catch {
                // Out of descriptors, most likely: stop accepting until the next readiness.
                return
            }
            guard let (fd, peer) = accepted else { return }
            statistics.accepted += 1
            if connections.count >= options.maxConnections || isDraining {
                statistics.overLimit += 1
                let response = HTTPResponse.text(503, isDraining ? "the server is shutting down" : "too many connections; retry shortly")
                let bytes = response.serialized(keepAlive: false, includeBody: true, date: httpDate())
                bytes.withUnsafeBytes { _ = Socket.write(fd, $0) }
                Glibc.close(fd)
                continue
            }
            let connection = Connection(fd: fd, peer: peer, server: self)
            connections[ObjectIdentifier(connection)] = connection
            statistics.open = connections.count
            loop.register(fd, connection, readable: true, writable: false)
        }
    }

    func connectionClosed(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = nil
        statistics.open = connections.count
        statistics.webSockets = webSockets
    }

    var openConnections: Int { connections.count }

    /// Stops accepting and asks every connection to finish.
    func beginDrain() {
        isDraining = true
        if listener >= 0 {
            loop.unregister(listener)
            Glibc.close(listener)
            listener = -1
        }
        for connection in Array(connections.values) { connection.drain() }
    }

    func closeAll() {
        for connection in Array(connections.values) { connection.terminate() }
    }

    func currentStatistics() -> ServerStatistics {
        var statistics = statistics
        statistics.open = connections.count
        statistics.webSockets = webSockets
        return statistics
    }

    /// The `Date` header value, made once a second.
    func httpDate() -> String {
        var now = time(nil)
        if Int(now) == cachedDate.second { return cachedDate.text }
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        cachedDate = (Int(now), text)
        return text
    }
}
