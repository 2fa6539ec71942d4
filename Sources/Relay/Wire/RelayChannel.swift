import Foundation

/// The notification channels of spec §7.1, by name.
///
/// Every name stays within PostgreSQL's 63 bytes: resort ids are at most 52
/// characters (checked by `meet.broadcast_position`), user ids 36.
public enum RelayChannel: Sendable, Hashable, CustomStringConvertible {
    /// `pos:resort:{resortId}`: every position packet at the resort.
    case resortPositions(String)
    /// `pos:cell:{geohash6}`: position packets of senders in that cell. The relay
    /// itself never needs it (a subscriber's resort channel carries every packet a
    /// cell would), but the publish RPC sends it for clients that subscribe by cell.
    case cellPositions(String)
    /// `friends:{userId}`: the user's friendships, requests or blocks changed
    /// (`{"generation": n}`, from the social core).
    case friends(UUID)
    /// `meets:{userId}`: a meet request involving the user changed (ids only).
    case meets(UUID)

    public var name: String {
        switch self {
        case .resortPositions(let resort): "pos:resort:" + resort
        case .cellPositions(let cell): "pos:cell:" + cell
        case .friends(let user): "friends:" + user.uuidString.lowercased()
        case .meets(let user): "meets:" + user.uuidString.lowercased()
        }
    }

    public var description: String { name }

    /// The channel a notification came on; nil for names that are not the relay's.
    public init?(name: String) {
        if name.hasPrefix("pos:resort:") {
            self = .resortPositions(String(name.dropFirst("pos:resort:".count)))
        } else if name.hasPrefix("pos:cell:") {
            self = .cellPositions(String(name.dropFirst("pos:cell:".count)))
        } else if name.hasPrefix("friends:"), let user = UUID(uuidString: String(name.dropFirst("friends:".count))) {
            self = .friends(user)
        } else if name.hasPrefix("meets:"), let user = UUID(uuidString: String(name.dropFirst("meets:".count))) {
            self = .meets(user)
        } else {
            return nil
        }
    }

    /// Whether `resortID` can name a resort channel (what `meet.broadcast_position` accepts).
    public static func isValidResortID(_ resortID: String) -> Bool {
        let bytes = Array(resortID.utf8)
        guard (1...52).contains(bytes.count) else { return false }
        func allowed(_ byte: UInt8, first: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                !first
            default:
                false
            }
        }
        return bytes.enumerated().allSatisfy { allowed($1, first: $0 == 0) }
    }
}
