import Foundation
import Relay

/// One channel a socket has joined, owned by its session.
final class RealtimeChannel: @unchecked Sendable {
    /// What the topic carries besides broadcast and presence.
    enum Kind: Sendable, Equatable {
        /// Any topic: broadcast and presence among its members.
        case plain
        /// `pos:resort:{id}`: friends' positions from the relay, filtered by friendship on the server.
        case resortPositions(String)
        /// `pos:cell:{geohash6}`: friends' positions in that cell, at the resort it lies in.
        case cellPositions(String)
    }

    /// `realtime:{subTopic}`.
    let topic: String
    let subTopic: String
    let joinRef: String?
    let kind: Kind
    /// `{node}:{socket}:{join ref}`: this channel wherever it is named (presence rows, broadcast origins).
    let origin: String
    var caller: RequestCaller
    var broadcastSelf = false
    var broadcastAck = false
    var presenceKey: String
    var bindings: [ChangeBinding] = []
    var tracked = false
    /// Whether the channel hears `presence_state` (joined with presence.enabled, or tracked since).
    var presenceEnabled = false
    /// The user whose change feed this channel follows.
    var changesUser: UUID?
    /// The resort whose positions the channel follows: the topic's, or a cell's resort.
    var positionsResort: String?
    var positions: RelaySubscription?
    var pump: Task<Void, Never>?

    init(topic: String, joinRef: String?, kind: Kind, origin: String, caller: RequestCaller, presenceKey: String) {
        self.topic = topic
        subTopic = String(topic.dropFirst("realtime:".count))
        self.joinRef = joinRef
        self.kind = kind
        self.origin = origin
        self.caller = caller
        self.presenceKey = presenceKey
    }

    /// The kind of `subTopic`, or why it cannot be joined.
    static func kind(of subTopic: String) -> Kind {
        if subTopic.hasPrefix("pos:resort:") { return .resortPositions(String(subTopic.dropFirst("pos:resort:".count))) }
        if subTopic.hasPrefix("pos:cell:") { return .cellPositions(String(subTopic.dropFirst("pos:cell:".count))) }
        return .plain
    }
}
