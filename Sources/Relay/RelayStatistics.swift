/// What a relay has done since it started.
public struct RelayStatistics: Sendable, Equatable, Codable {
    /// Notifications received on the listening connection.
    public var notifications = 0
    /// Positions handed to subscribers' buffers.
    public var delivered = 0
    /// Positions held while a subscriber's social snapshot was refreshed.
    public var held = 0
    /// Positions not delivered, by reason (a subscriber's full buffer counts as `overflow`).
    public var dropped: [DropReason: Int] = [:]
    /// Notifications whose payload could not be read.
    public var malformed = 0
    /// Times the listening connection was lost and restored.
    public var gaps = 0
    /// Social snapshots loaded.
    public var snapshotsLoaded = 0
    /// Stored positions read to hydrate subscribers.
    public var storedPositionsRead = 0
    /// Subscribers now.
    public var subscribers = 0
    /// Notifications handed to taps (one per tap that heard it).
    public var tapped = 0

    public init() {}

    mutating func drop(_ reason: DropReason) {
        dropped[reason, default: 0] += 1
    }

    public var droppedTotal: Int { dropped.values.reduce(0, +) }
}
