import Foundation
import JSONDepth

/// What a subscriber receives.
public enum RelayEvent: Sendable, Equatable {
    /// A friend's position, with its freshness on the relay's clock.
    case position(FriendPosition)
    /// The friend filter now follows a newer social snapshot.
    case social(generation: Int64, friends: [UUID])
    /// A meet request involving the subscriber changed: re-read it under RLS.
    case meetRequest(MeetRequestNotice)
    /// The relay's connection to PostgreSQL was lost and is back: notifications sent
    /// meanwhile are gone. The relay re-reads the social snapshot and the stored
    /// positions next, so nothing the database still holds is lost.
    case gap(reason: String)
    /// The subscriber's presence moved to `phase`.
    case phase(PresencePhase, resort: String?)
}

/// A position as delivered: the packet, where it came from, and how fresh it was.
public struct FriendPosition: Sendable, Equatable {
    public var packet: PositionPacket
    public var source: SubscriberState.Source
    public var freshness: Freshness

    public init(packet: PositionPacket, source: SubscriberState.Source, freshness: Freshness) {
        self.packet = packet
        self.source = source
        self.freshness = freshness
    }
}

/// A `meets:{id}` notification: which row changed and how, nothing more.
public struct MeetRequestNotice: Sendable, Equatable, Codable {
    public var table: String
    public var id: String
    /// insert, update or delete.
    public var event: String

    public init(table: String, id: String, event: String) {
        self.table = table
        self.id = id
        self.event = event
    }

    public init(payload: String) throws {
        try JSONDepth.check(payload.utf8)
        self = try JSONDecoder().decode(MeetRequestNotice.self, from: Data(payload.utf8))
    }
}

/// The payload of a `friends:{id}` notification.
struct SocialChangeNotice: Decodable {
    var generation: Int64?

    init(payload: String) {
        self = (try? JSONDecoder().decode(SocialChangeNotice.self, from: Data(payload.utf8))) ?? SocialChangeNotice()
    }

    init() {}
}
