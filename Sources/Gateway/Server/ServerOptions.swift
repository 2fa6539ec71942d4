/// How the server listens and what it tolerates.
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests).
    public var port = 8000
    /// Lets several processes share the port; the kernel spreads connections.
    public var reusePort = true
    public var limits = HTTPLimits()
    /// Connections beyond this are answered 503 and closed.
    public var maxConnections = 16_384
    /// WebSocket frames and messages larger than this close the connection (1009).
    public var maxWebSocketMessage = 256 * 1024
    /// A WebSocket that sends nothing (not even a heartbeat) for this long is closed.
    public var webSocketIdleTimeout: Duration = .seconds(90)
    /// Outbound bytes a WebSocket may have waiting before its session is held back.
    public var webSocketHighWater = 256 * 1024
    public var webSocketLowWater = 64 * 1024
    /// A WebSocket whose reader stays this far behind is closed (1008): it is not reading.
    public var webSocketMaxBuffered = 4 * 1024 * 1024
    /// Inbound WebSocket messages held for a session before the socket stops being read.
    public var webSocketInboundLimit = 64
    /// How long a shutdown waits for requests in flight and WebSocket closes.
    public var drainTimeout: Duration = .seconds(10)

    public init() {}
}
