import Foundation

/// Whom one subscriber receives positions from: accepted friends, unblocked,
/// as of the newest social snapshot applied.
///
/// Generation 0 means no snapshot yet, and then nobody is admitted: a filter
/// must never run against an empty friend set and "accept everyone" (the
/// seed's social snapshot gate).
public struct FriendFilter: Sendable, Equatable {
    public private(set) var generation: Int64 = 0
    /// Admitted senders and the label their positions carry.
    public private(set) var admitted: [UUID: String?] = [:]

    public init() {}

    /// Applies `snapshot` unless an equal or newer one already was (snapshots
    /// loaded concurrently may finish out of order). Returns whether it applied.
    @discardableResult
    public mutating func apply(_ snapshot: SocialSnapshot) -> Bool {
        guard snapshot.generation > generation else { return false }
        let blocked = Set(snapshot.blocks.map(\.userID))
        var admitted: [UUID: String?] = [:]
        for friend in snapshot.friends where !blocked.contains(friend.userID) {
            admitted[friend.userID] = friend.label
        }
        self.admitted = admitted
        generation = snapshot.generation
        return true
    }

    public var isLoaded: Bool { generation > 0 }

    public func admits(_ sender: UUID) -> Bool {
        generation > 0 && admitted[sender] != nil
    }

    public var admittedIDs: Set<UUID> { Set(admitted.keys) }

    /// The label of an admitted sender.
    public func label(of sender: UUID) -> String? {
        admitted[sender] ?? nil
    }
}
