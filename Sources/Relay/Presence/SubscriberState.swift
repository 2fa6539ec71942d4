import Foundation

/// One subscriber's receiving side, without any I/O: the presence machine, the
/// friend filter, the newest capture time delivered per sender, and positions
/// held while a social refresh is in flight. The relay feeds it packets and
/// snapshots and acts on its answers.
public struct SubscriberState: Sendable {
    public let user: UUID
    public var machine = PresenceMachine()
    public private(set) var filter = FriendFilter()
    /// Newest capture time delivered per sender, for the resort being streamed.
    public private(set) var lastDelivered: [UUID: Int64] = [:]
    /// A `friends:{id}` event announced this generation; positions are held until
    /// a snapshot at least this new is applied.
    public private(set) var awaitedGeneration: Int64?
    /// A reconnect may have hidden friendship changes; positions are held until a
    /// snapshot loaded after the gap is applied.
    public private(set) var awaitingResync = false
    /// Positions that arrived while the filter was out of date, judged once it is not.
    public private(set) var held: [PositionPacket] = []
    /// Connection gaps so far. A snapshot settles a resync only if its load began after the last gap.
    public private(set) var gaps = 0
    /// The most positions held while waiting; beyond, the oldest go.
    public let holdLimit: Int

    /// Where a delivered position came from.
    public enum Source: String, Sendable, Codable {
        /// A notification.
        case live
        /// `meet.live_presence`, read under RLS on entering a resort or after a gap.
        case stored
    }

    public enum Verdict: Sendable, Equatable {
        case deliver(Freshness)
        /// The friend filter is being refreshed: decide once it is.
        case hold
        case drop(DropReason)
    }

    public init(user: UUID, holdLimit: Int = 512) {
        self.user = user
        self.holdLimit = max(1, holdLimit)
    }

    /// Judges one packet (spec §7.3), recording it as delivered when it passes.
    public mutating func receive(_ packet: PositionPacket, now: Date) -> Verdict {
        guard machine.phase.acceptsPositions, let resort = machine.resort else { return .drop(.notSubscribed) }
        if packet.userID == user { return .drop(.own) }
        guard filter.isLoaded else { return .drop(.socialNotLoaded) }
        if isWaitingForSocial {
            if held.count >= holdLimit { held.removeFirst() }
            held.append(packet)
            return .hold
        }
        guard filter.admits(packet.userID) else { return .drop(.notFriend) }
        if let last = lastDelivered[packet.userID], packet.capturedMicros <= last { return .drop(.notNewer) }
        guard packet.resortID == resort else { return .drop(.otherResort) }
        guard let freshness = Freshness.of(packet, selectedResort: resort, now: now) else { return .drop(.tooOld) }
        lastDelivered[packet.userID] = packet.capturedMicros
        return .deliver(freshness)
    }

    /// Whether positions are held for a snapshot.
    public var isWaitingForSocial: Bool { awaitedGeneration != nil || awaitingResync }

    /// A `friends:{id}` event announced `generation` (nil when the payload had
    /// none). Returns whether a snapshot must be loaded; from now until it is
    /// applied, positions are held, so an unfriend or a block stops delivery at
    /// this event and not one packet later.
    public mutating func socialChanged(generation: Int64?) -> Bool {
        let wanted = generation ?? filter.generation + 1
        guard wanted > filter.generation else { return false }
        if let awaitedGeneration, awaitedGeneration >= wanted { return false }
        awaitedGeneration = wanted
        return true
    }

    /// The relay's connection was lost and is back: friendship changes may have
    /// been missed, so hold positions until a snapshot loaded from now on is applied.
    public mutating func connectionGap() {
        gaps += 1
        awaitingResync = true
    }

    /// Applies a snapshot whose load began when `gaps` was `gapsAtLoad`. Returns
    /// the held packets to judge again, now under the new filter, once nothing
    /// is awaited any more; a snapshot older than the generation awaited, or one
    /// whose load began before the last gap, leaves them held.
    public mutating func apply(_ snapshot: SocialSnapshot, gapsAtLoad: Int) -> [PositionPacket] {
        filter.apply(snapshot)
        if let awaitedGeneration, filter.generation >= awaitedGeneration { self.awaitedGeneration = nil }
        if awaitingResync, gapsAtLoad == gaps { awaitingResync = false }
        guard !isWaitingForSocial else { return [] }
        defer { held.removeAll() }
        return held
    }

    /// Forgets what belonged to the resort being left (delivered capture times, held packets).
    public mutating func clearResortState() {
        lastDelivered.removeAll()
        held.removeAll()
    }
}
