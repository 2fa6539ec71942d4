/// How much a client may send, and how long it may take.
public struct HTTPLimits: Sendable {
    /// Request line plus header fields, up to the blank line.
    public var maxHeadBytes = 16 * 1024
    /// The request target alone (longer gets 414).
    public var maxTargetBytes = 8 * 1024
    public var maxHeaderCount = 64
    /// A body, unless the route allows more (storage uploads do).
    public var maxBodyBytes = 1 << 20
    /// Time from a request's first byte to its blank line (slowloris).
    public var headTimeout: Duration = .seconds(10)
    /// Time to read a whole body once its head is in.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long a kept-alive connection may sit idle between requests.
    public var idleTimeout: Duration = .seconds(75)
    /// How long a response may take to leave (a client that stops reading).
    public var writeTimeout: Duration = .seconds(30)

    public init() {}
}
