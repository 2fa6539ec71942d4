/// What a server has done since it started.
public struct ServerStatistics: Sendable, Equatable {
    public var accepted = 0
    public var open = 0
    public var webSockets = 0
    public var requests = 0
    public var upgrades = 0
    /// Requests or frames refused as malformed or too large.
    public var rejected = 0
    /// Connections closed for taking too long (slowloris, idle WebSockets, stalled writes).
    public var timedOut = 0
    /// WebSockets closed because their reader fell too far behind.
    public var slowClosed = 0
    /// Connections refused because the limit was reached.
    public var overLimit = 0
    public var bytesOut = 0

    public init() {}
}
