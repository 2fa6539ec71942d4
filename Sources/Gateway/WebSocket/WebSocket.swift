import Foundation

/// One upgraded connection as its session sees it: messages in, frames out.
///
/// Safe from any thread. The socket itself lives on the event loop; sends are
/// handed to it. Outbound bytes not yet written are counted, so a session can wait
/// for room (`waitForRoom`) instead of piling frames on a slow reader; inbound
/// messages are held here, and the loop stops reading the socket while too many
/// wait, so a fast sender cannot grow memory either.
public final class WebSocket: @unchecked Sendable {
    /// Buffered outbound bytes above which `waitForRoom` waits.
    public let highWater: Int
    /// …and below which it lets waiters go again.
    public let lowWater: Int
    /// Inbound messages held before the loop stops reading.
    let inboundLimit: Int
    public let remoteAddress: String
    /// The upgrade request (its query carries the API key, for realtime).
    public let request: HTTPRequest

    private let lock = NSLock()
    // Guarded by `lock`:
    private var inbound: [WebSocketMessageAssembler.Message] = []
    private var receiver: CheckedContinuation<WebSocketMessageAssembler.Message?, Never>?
    private var queuedBytes = 0
    private var roomWaiters: [CheckedContinuation<Void, Never>] = []
    private var closed = false
    private var readingPaused = false
    /// Set by the connection: hands work to the loop.
    private var transport: (any WebSocketTransport)?

    init(request: HTTPRequest, highWater: Int, lowWater: Int, inboundLimit: Int) {
        self.request = request
        self.remoteAddress = request.remoteAddress
        self.highWater = highWater
        self.lowWater = lowWater
        self.inboundLimit = inboundLimit
    }

    func attach(_ transport: any WebSocketTransport) {
        lock.withLock { self.transport = transport }
    }

    // MARK: - The session's side

    /// The next message from the client; nil once the connection is closed.
    /// Pings are answered by the loop and never show up here.
    public func receive() async -> WebSocketMessageAssembler.Message? {
        let (ready, resume): (WebSocketMessageAssembler.Message??, (any WebSocketTransport)?) = lock.withLock {
            if !inbound.isEmpty {
                let message = inbound.removeFirst()
                return (.some(message), resumeIfRoom())
            }
            if closed { return (.some(nil), nil) }
            return (nil, nil)
        }
        resume?.resumeReading()
        if let ready { return ready }
        return await withCheckedContinuation { continuation in
            let immediate: WebSocketMessageAssembler.Message?? = lock.withLock {
                if !inbound.isEmpty { return .some(inbound.removeFirst()) }
                if closed { return .some(nil) }
                receiver = continuation
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Queues a text frame. Returns false when the connection is closed.
    @discardableResult
    public func send(text: String) -> Bool {
        send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)).encoded())
    }

    @discardableResult
    public func send(binary: [UInt8]) -> Bool {
        send(WebSocketFrame(opcode: .binary, payload: binary).encoded())
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        let transport: (any WebSocketTransport)? = lock.withLock {
            guard !closed else { return nil }
            queuedBytes += bytes.count
            return self.transport
        }
        guard let transport else { return false }
        transport.write(bytes)
        return true
    }

    /// Bytes handed to the socket and not yet written: what a slow reader leaves behind.
    public var bufferedBytes: Int { lock.withLock { queuedBytes } }

    public var isClosed: Bool { lock.withLock { closed } }

    /// Returns when fewer than `lowWater` bytes wait to be written (at once if so), or
    /// when the connection closes.
    public func waitForRoom() async {
        if lock.withLock({ closed || queuedBytes < highWater }) { return }
        await withCheckedContinuation { continuation in
            let now: Bool = lock.withLock {
                if closed || queuedBytes < lowWater { return true }
                roomWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Starts the closing handshake with `code`; `receive` returns nil once it is done.
    public func close(_ code: WebSocketCloseCode = .normal, reason: String = "") {
        let transport = lock.withLock { closed ? nil : self.transport }
        transport?.close(code: code, reason: reason)
    }

    // MARK: - The loop's side

    /// A message arrived. Returns false when the loop should stop reading for now.
    func deliver(_ message: WebSocketMessageAssembler.Message) -> Bool {
        let (waiter, keepReading): (CheckedContinuation<WebSocketMessageAssembler.Message?, Never>?, Bool) = lock.withLock {
            if let receiver {
                self.receiver = nil
                return (receiver, true)
            }
            inbound.append(message)
            if inbound.count >= inboundLimit {
                readingPaused = true
                return (nil, false)
            }
            return (nil, true)
        }
        waiter?.resume(returning: message)
        return keepReading
    }

    /// Bytes left the socket.
    func wrote(_ count: Int) {
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            queuedBytes = max(0, queuedBytes - count)
            guard queuedBytes < lowWater, !roomWaiters.isEmpty else { return [] }
            defer { roomWaiters.removeAll() }
            return roomWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The connection is gone: wake everyone.
    func finish() {
        let (receiver, waiters): (CheckedContinuation<WebSocketMessageAssembler.Message?, Never>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
            closed = true
            transport = nil
            defer {
                self.receiver = nil
                roomWaiters.removeAll()
            }
            return (self.receiver, roomWaiters)
        }
        receiver?.resume(returning: nil)
        for waiter in waiters { waiter.resume() }
    }

    /// Called under `lock`: the transport to resume when reading was paused and there is room again.
    private func resumeIfRoom() -> (any WebSocketTransport)? {
        guard readingPaused, inbound.count < inboundLimit / 2 else { return nil }
        readingPaused = false
        return transport
    }
}

/// What a `WebSocket` asks of the connection under it (which does it on the loop).
protocol WebSocketTransport: AnyObject, Sendable {
    func write(_ bytes: [UInt8])
    func close(code: WebSocketCloseCode, reason: String)
    func resumeReading()
}
