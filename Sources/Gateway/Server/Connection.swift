#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One client connection, owned by the event loop and touched only on its thread.
///
/// Phases: `http` reads requests; `responding` waits for a handler (the socket is
/// not read meanwhile, which is HTTP's back-pressure, and pipelined bytes wait in
/// the buffer); `webSocket` after an upgrade; `closing` flushes what is queued,
/// shuts the write side and discards input briefly (so an error response is not
/// lost to a reset); `closed`. Deadlines are checked on the loop's tick.
final class Connection: EventHandler, WebSocketTransport, @unchecked Sendable {
    enum Phase {
        case http
        case responding
        case webSocket
        case closing(lingerUntil: UInt64?)
        case closed
    }

    let fd: Int32
    let peer: String
    unowned let server: GatewayServerCore
    private(set) var phase: Phase = .http
    private var input = InputBuffer()
    private var output: [[UInt8]] = []
    private var outputOffset = 0
    private var outputBytes = 0
    private var parser: HTTPRequestParser
    private var readInterest = true
    private var writeInterest = false
    /// When the current wait (idle, head, body, write, WebSocket silence) runs out.
    private var deadline: UInt64
    private var deadlineReason = "idle"
    /// When the output last made progress, for the write timeout.
    private var lastWriteProgress: UInt64
    private var webSocket: WebSocket?
    private var frameParser: WebSocketFrameParser?
    private var assembler: WebSocketMessageAssembler?
    private var sentClose = false
    /// Set during shutdown: the next response closes the connection.
    var draining = false

    init(fd: Int32, peer: String, server: GatewayServerCore) {
        self.fd = fd
        self.peer = peer
        self.server = server
        var parser = HTTPRequestParser(limits: server.options.limits) { [responder = server.responder] method, path in
            responder.bodyLimit(method: method, path: path)
        }
        parser.remoteAddress = peer
        self.parser = parser
        let now = Monotonic.nanoseconds()
        deadline = now + Monotonic.nanoseconds(server.options.limits.idleTimeout)
        lastWriteProgress = now
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    var isIdleHTTP: Bool {
        if case .http = phase { return !parser.isInsideRequest && input.isEmpty }
        return false
    }

    // MARK: - Readiness

    func ready(readable: Bool, writable: Bool, hangup: Bool) {
        if writable { flush() }
        if readable || hangup { readAvailable() }
    }

    private func readAvailable() {
        guard !isClosed else { return }
        let result = server.scratch.withUnsafeMutableBytes { Socket.read(fd, into: $0) }
        switch result {
        case .wouldBlock:
            return
        case .closed, .failed:
            if case .closing = phase { return terminate() }
            if case .webSocket = phase { webSocket?.finish() }
            return terminate()
        case .bytes(let count):
            if case .closing = phase { return }  // lingering: discard
            server.scratch.withUnsafeBytes { input.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            process()
        }
    }

    /// Consumes buffered input according to the phase.
    private func process() {
        switch phase {
        case .http: processHTTP()
        case .webSocket: processWebSocket()
        case .responding, .closing, .closed: break
        }
    }

    // MARK: - HTTP

    private func processHTTP() {
        while case .http = phase, !input.isEmpty {
            let wasInside = parser.isInsideRequest
            let wasBody = parser.isReadingBody
            let event: HTTPRequestParser.Event?
            do {
                event = try parser.next(from: &input)
            } catch {
                return fail(status: error.status, message: error.message)
            }
            // Deadlines follow the request: a head has headTimeout from its first byte, a body bodyTimeout.
            if !wasInside && parser.isInsideRequest {
                setDeadline(server.options.limits.headTimeout, "request head")
            }
            if !wasBody && parser.isReadingBody {
                setDeadline(server.options.limits.bodyTimeout, "request body")
            }
            guard let event else { return }
            switch event {
            case .continueExpected:
                enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            case .request(let request):
                dispatch(request)
            }
        }
    }

    private func dispatch(_ request: HTTPRequest) {
        phase = .responding
        setReadInterest(false)
        server.inFlight += 1
        let responder = server.responder
        let loop = server.loop
        Task {
            let reply = await responder.respond(to: request)
            loop.execute { [self] in self.complete(reply, for: request) }
        }
    }

    private func complete(_ reply: HTTPReply, for request: HTTPRequest) {
        server.inFlight -= 1
        guard case .responding = phase else { return }
        let head = request.method == .head
        switch reply {
        case .response(let response):
            let keepAlive = request.keepAlive && !draining && !server.isDraining
            enqueue(response.serialized(keepAlive: keepAlive, includeBody: !head, date: server.httpDate()))
            server.statistics.requests += 1
            if keepAlive {
                phase = .http
                setDeadline(server.options.limits.idleTimeout, "idle")
                setReadInterest(true)
                processHTTP()
            } else {
                beginClosing()
            }
        case .upgrade(let response, let session):
            guard !server.isDraining else {
                enqueue(HTTPResponse.text(503, "the server is shutting down; reconnect shortly")
                    .serialized(keepAlive: false, includeBody: true, date: server.httpDate()))
                return beginClosing()
            }
            enqueue(response.serialized(keepAlive: true, includeBody: false, date: server.httpDate()))
            upgrade(request, session: session)
        }
    }

    /// Answers a request that could not be read, then closes.
    private func fail(status: Int, message: String) {
        server.statistics.rejected += 1
        let body = JSONText.serialize(["code": status, "message": message] as [String: Any])
        var response = HTTPResponse.json(status, body)
        if status == 408 { response.headers.set("retry-after", "1") }
        enqueue(response.serialized(keepAlive: false, includeBody: true, date: server.httpDate()))
        beginClosing()
    }

    // MARK: - WebSocket

    private func upgrade(_ request: HTTPRequest, session: @escaping @Sendable (WebSocket) async -> Void) {
        let options = server.options
        let socket = WebSocket(request: request, highWater: options.webSocketHighWater,
                               lowWater: options.webSocketLowWater, inboundLimit: options.webSocketInboundLimit)
        socket.attach(self)
        webSocket = socket
        frameParser = WebSocketFrameParser(maxFramePayload: options.maxWebSocketMessage)
        assembler = WebSocketMessageAssembler(maxMessageBytes: options.maxWebSocketMessage)
        phase = .webSocket
        server.statistics.upgrades += 1
        server.webSockets += 1
        setDeadline(options.webSocketIdleTimeout, "WebSocket silence")
        setReadInterest(true)
        Task {
            await session(socket)
            // The session is done: make sure the connection closes too.
            socket.close(.normal)
        }
        processWebSocket()
    }

    private func processWebSocket() {
        guard var frameParser, var assembler, let webSocket else { return }
        defer {
            self.frameParser = frameParser
            self.assembler = assembler
        }
        while case .webSocket = phase, !input.isEmpty, readInterest {
            let message: WebSocketMessageAssembler.Message?
            do {
                guard let frame = try frameParser.next(from: &input) else { return }
                setDeadline(server.options.webSocketIdleTimeout, "WebSocket silence")
                message = try assembler.receive(frame)
            } catch {
                server.statistics.rejected += 1
                return closeWebSocket(code: error.code, reason: error.message)
            }
            guard let message else { continue }
            switch message {
            case .ping(let payload):
                enqueue(WebSocketFrame(opcode: .pong, payload: payload).encoded())
            case .pong:
                break
            case .close(let code, _):
                // Echo the close (RFC 6455 §5.5.1), then finish.
                if !sentClose {
                    sentClose = true
                    let echo = code.flatMap { WebSocketCloseCode(rawValue: $0) } ?? .normal
                    enqueue(WebSocketFrame.close(echo).encoded())
                }
                webSocket.finish()
                return beginClosing()
            case .text, .binary:
                if !webSocket.deliver(message) { setReadInterest(false) }
            }
        }
    }

    /// Sends a close frame and closes once it is out; the session sees the end.
    private func closeWebSocket(code: WebSocketCloseCode, reason: String) {
        guard case .webSocket = phase else { return }
        if !sentClose {
            sentClose = true
            enqueue(WebSocketFrame.close(code, reason: reason).encoded())
        }
        webSocket?.finish()
        beginClosing()
    }

    // WebSocketTransport: called from any thread, carried out on the loop.

    func write(_ bytes: [UInt8]) {
        server.loop.execute { [self] in
            guard case .webSocket = phase else {
                webSocket?.wrote(bytes.count)
                return
            }
            enqueue(bytes)
            // A reader this far behind is not reading at all.
            if outputBytes > server.options.webSocketMaxBuffered {
                server.statistics.slowClosed += 1
                // Drop what is queued, except a frame already partly on the wire.
                let keep = outputOffset > 0 ? output.prefix(1) : []
                let kept = keep.first.map { $0.count - outputOffset } ?? 0
                let dropped = outputBytes - kept
                output = Array(keep)
                outputBytes = kept
                webSocket?.wrote(dropped)
                closeWebSocket(code: .policyViolation, reason: "too slow: more than \(server.options.webSocketMaxBuffered) bytes unread")
            }
        }
    }

    func close(code: WebSocketCloseCode, reason: String) {
        server.loop.execute { [self] in closeWebSocket(code: code, reason: reason) }
    }

    func resumeReading() {
        server.loop.execute { [self] in
            guard case .webSocket = phase else { return }
            setReadInterest(true)
            processWebSocket()
        }
    }

    // MARK: - Output

    private func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !isClosed else { return }
        if outputBytes == 0 { lastWriteProgress = Monotonic.nanoseconds() }
        output.append(bytes)
        outputBytes += bytes.count
        flush()
    }

    private func flush() {
        var written = 0
        while let first = output.first {
            let result = first.withUnsafeBytes { buffer in
                Socket.write(fd, UnsafeRawBufferPointer(rebasing: buffer[outputOffset...]))
            }
            switch result {
            case .wrote(let count):
                written += count
                outputOffset += count
                if outputOffset == first.count {
                    output.removeFirst()
                    outputOffset = 0
                }
            case .wouldBlock:
                account(written)
                setWriteInterest(true)
                return
            case .failed:
                account(written)
                webSocket?.finish()
                return terminate()
            }
        }
        account(written)
        setWriteInterest(false)
        if case .closing(let linger) = phase, linger == nil { finishWriting() }
    }

    private func account(_ written: Int) {
        guard written > 0 else { return }
        outputBytes -= written
        lastWriteProgress = Monotonic.nanoseconds()
        server.statistics.bytesOut += written
        if case .webSocket = phase { webSocket?.wrote(written) }
    }

    // MARK: - Closing

    /// Stops taking requests; closes once the output is flushed.
    func beginClosing() {
        switch phase {
        case .closing, .closed: return
        default: break
        }
        phase = .closing(lingerUntil: nil)
        setReadInterest(true)
        if output.isEmpty { finishWriting() }
    }

    /// Output is out: shut the write side and read (discarding) a little longer, so the
    /// client sees the response before the connection goes.
    private func finishWriting() {
        shutdown(fd, Int32(SHUT_WR))
        phase = .closing(lingerUntil: Monotonic.nanoseconds() + 2_000_000_000)
    }

    /// Closes the socket now.
    func terminate() {
        guard !isClosed else { return }
        phase = .closed
        server.loop.unregister(fd)
        Glibc.close(fd)
        if let webSocket {
            webSocket.finish()
            server.webSockets -= 1
        }
        webSocket = nil
        output.removeAll()
        server.connectionClosed(self)
    }

    /// Shutdown: finish what is in flight, then close.
    func drain() {
        draining = true
        switch phase {
        case .http:
            if !parser.isInsideRequest { beginClosing() }
        case .webSocket:
            closeWebSocket(code: .goingAway, reason: "the server is shutting down; reconnect shortly")
        case .responding, .closing, .closed:
            break
        }
    }

    // MARK: - Deadlines

    private func setDeadline(_ duration: Duration, _ reason: String) {
        deadline = Monotonic.nanoseconds() + Monotonic.nanoseconds(duration)
        deadlineReason = reason
    }

    /// Called on every tick.
    func checkDeadlines(now: UInt64) {
        if outputBytes > 0, now - lastWriteProgress > Monotonic.nanoseconds(server.options.limits.writeTimeout) {
            server.statistics.timedOut += 1
            return terminate()
        }
        switch phase {
        case .closing(let linger):
            if let linger, now >= linger { terminate() }
        case .http:
            guard now >= deadline else { return }
            server.statistics.timedOut += 1
            if parser.isInsideRequest {
                fail(status: 408, message: "the \(deadlineReason) took too long to arrive")
            } else {
                terminate()
            }
        case .webSocket:
            guard now >= deadline else { return }
            server.statistics.timedOut += 1
            closeWebSocket(code: .policyViolation, reason: "nothing received for \(server.options.webSocketIdleTimeout): send heartbeats")
        case .responding, .closed:
            break
        }
    }

    private func setReadInterest(_ on: Bool) {
        guard on != readInterest, !isClosed else { return }
        readInterest = on
        server.loop.update(fd, readable: readInterest, writable: writeInterest)
    }

    private func setWriteInterest(_ on: Bool) {
        guard on != writeInterest, !isClosed else { return }
        writeInterest = on
        server.loop.update(fd, readable: readInterest, writable: writeInterest)
    }
}
