/// Why a position did not reach a subscriber (spec §7.3), counted per reason.
public enum DropReason: String, Sendable, CaseIterable, Codable {
    /// The subscriber's own packet.
    case own
    /// No social snapshot yet (generation 0): the filter would run against an empty friend set.
    case socialNotLoaded
    /// Not an accepted, unblocked friend.
    case notFriend
    /// Captured no later than the newest sample already delivered from that sender.
    case notNewer
    /// Sent for another resort than the one the subscriber is on.
    case otherResort
    /// The subscriber is not entering or streaming a resort.
    case notSubscribed
    /// Older than three hours: not shown at all.
    case tooOld
    /// The subscriber's buffer was full and a newer sample took its place.
    case overflow
}
