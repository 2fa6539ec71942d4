import Foundation

/// An HTTP/1.1 and WebSocket server on one epoll thread.
///
///     let server = try HTTPServer(options: options, responder: gateway)
///     try server.start()              // listening on server.port
///     …
///     await server.shutdown()         // finish in-flight work, close WebSockets with 1001
public final class HTTPServer: Sendable {
    private let loop: EventLoop
    private let core: GatewayServerCore
    public let options: ServerOptions
    /// The counters as they stood when the loop stopped (it answers nothing after).
    private let final = FinalStatistics()

    public init(options: ServerOptions, responder: some HTTPResponder) throws {
        self.options = options
        loop = try EventLoop()
        core = GatewayServerCore(loop: loop, options: options, responder: responder)
    }

    /// Binds, listens and starts the loop. Throws when the address cannot be used.
    public func start() throws {
        _ = Socket.raiseDescriptorLimit()
        try core.listen()
        loop.start(name: "summit-http")
        loop.execute { [core] in core.activate() }
    }

    /// The port listened on (the chosen one when the options said 0).
    public var port: Int { core.port }

    public var statistics: ServerStatistics {
        get async {
            if let stopped = final.value { return stopped }
            return await withCheckedContinuation { continuation in
                loop.execute { [core] in continuation.resume(returning: core.currentStatistics()) }
            }
        }
    }

    /// Stops accepting, lets requests in flight finish and WebSockets close (1001),
    /// waits up to the drain timeout, then closes whatever is left and stops the loop.
    public func shutdown() async {
        guard final.claimShutdown() else { return }
        loop.execute { [core] in core.beginDrain() }
        let deadline = ContinuousClock.now + options.drainTimeout
        while ContinuousClock.now < deadline {
            let open: Int = await withCheckedContinuation { continuation in
                loop.execute { [core] in continuation.resume(returning: core.openConnections) }
            }
            if open == 0 { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let last: ServerStatistics = await withCheckedContinuation { continuation in
            loop.execute { [core] in
                core.closeAll()
                continuation.resume(returning: core.currentStatistics())
            }
        }
        final.value = last
        await loop.stop()
    }
}

/// Set once, read from anywhere.
private final class FinalStatistics: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: ServerStatistics?
    private var shuttingDown = false

    /// True for the first caller only: a second shutdown has nothing to do.
    func claimShutdown() -> Bool {
        lock.withLock {
            defer { shuttingDown = true }
            return !shuttingDown
        }
    }

    var value: ServerStatistics? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
