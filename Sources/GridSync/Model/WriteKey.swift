/// The last-write-wins key of a row, `K = (updated_at, device_id)` (C1, C2):
/// the later write wins; at the same instant the larger device id does.
public struct WriteKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var updatedAt: Timestamp
    /// Lower-case text: uuid order is byte order, and so is this text's.
    public var deviceID: String

    public init(updatedAt: Timestamp, deviceID: String) {
        self.updatedAt = updatedAt
        self.deviceID = deviceID
    }

    public static func < (a: WriteKey, b: WriteKey) -> Bool {
        (a.updatedAt, a.deviceID) < (b.updatedAt, b.deviceID)
    }

    public var description: String { "(\(updatedAt.iso), \(deviceID))" }
}
