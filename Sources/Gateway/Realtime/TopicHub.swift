import Foundation
import Postgres
import Relay

/// Broadcast and presence for channels, across every gateway process.
///
/// A process LISTENs (through the relay's single listening connection) on the
/// topic's channel `rt:{hash}` while any of its sockets is joined there. Everything
/// said on a topic — a client's broadcast, a presence diff written in SQL — goes
/// out with `pg_notify`, so each process hears it the same way and hands it to its
/// own members. Nothing here waits on a member: messages go into their outboxes.
final class TopicHub: @unchecked Sendable {
    /// One joined channel, as the hub needs it to deliver.
    struct Member: Sendable {
        var outbox: Outbox
        /// `{node}:{socket}:{join ref}`: broadcasts carry it so senders can skip their own.
        var origin: String
        var receivesOwnBroadcasts: Bool
        var serializer: PhoenixMessage.Serializer
        /// Told when the outbox gave up (the session closes itself).
        var overflow: @Sendable () -> Void
    }

    private struct Topic {
        var members: [String: Member] = [:]
        var tap: Task<RelayTap, any Error>?
    }

    private let relay: Relay
    private let pool: PostgresPool
    private let lock = NSLock()
    private var topics: [String: Topic] = [:]

    init(relay: Relay, pool: PostgresPool) {
        self.relay = relay
        self.pool = pool
    }

    /// The notification channel of `topic` (the same function SQL uses).
    static func channel(of topic: String) -> String {
        "rt:" + SHA256Hex.prefix(topic, 24)
    }

    /// Adds a member; returns once its process listens on the topic.
    func join(_ topic: String, _ member: Member) async throws {
        let task: Task<RelayTap, any Error> = lock.withLock {
            topics[topic, default: Topic()].members[member.origin] = member
            if let tap = topics[topic]?.tap { return tap }
            let relay = relay
            weak let hub = self
            let tap = Task {
                try await relay.tap(Self.channel(of: topic)) { event in hub?.deliver(topic, event) }
            }
            topics[topic]?.tap = tap
            return tap
        }
        do {
            _ = try await task.value
        } catch {
            await leave(topic, origin: member.origin)
            throw error
        }
    }

    func leave(_ topic: String, origin: String) async {
        let tap: Task<RelayTap, any Error>? = lock.withLock {
            guard topics[topic]?.members.removeValue(forKey: origin) != nil else { return nil }
            guard topics[topic]?.members.isEmpty == true else { return nil }
            defer { topics[topic] = nil }
            return topics[topic]?.tap
        }
        if let tap, let relayTap = try? await tap.value { await relay.untap(relayTap) }
    }

    /// Says `event` with `payload` (JSON text) to everyone on `topic`, in every process.
    func broadcast(_ topic: String, event: String, payloadJSON: String, origin: String) async throws {
        let envelope = #"{"kind":"broadcast","topic":"# + JSONText.quote(topic) + #","origin":"# + JSONText.quote(origin)
            + #","event":"# + JSONText.quote(event) + #","payload":"# + payloadJSON + "}"
        guard envelope.utf8.count < 7900 else { throw BroadcastTooLarge(bytes: envelope.utf8.count) }
        _ = try await pool.withConnection { connection in
            try await connection.query("select pg_notify(\(Self.channel(of: topic)), \(envelope))")
        }
    }

    struct BroadcastTooLarge: Error, CustomStringConvertible {
        var bytes: Int
        var description: String { "a broadcast carries at most about 7.5 KB; this one is \(bytes) bytes: send less, or store it and broadcast its id" }
    }

    /// A notification on a topic's channel: to every local member.
    private func deliver(_ topic: String, _ event: RelayTapEvent) {
        let members: [Member] = lock.withLock { topics[topic].map { Array($0.members.values) } ?? [] }
        guard !members.isEmpty else { return }
        switch event {
        case .gap:
            // Notifications were lost while the listener reconnected: presence is re-read in full.
            for member in members { member.outbox.push(.text(PresenceResync.marker(topic), droppable: false)) }
        case .notification(let payload):
            guard let envelope = JSONText.parse(payload) as? [String: Any], envelope["topic"] as? String == topic else { return }
            switch envelope["kind"] as? String {
            case "broadcast":
                guard let name = envelope["event"] as? String else { return }
                let origin = envelope["origin"] as? String
                let body = #"{"event":"# + JSONText.quote(name) + #","payload":"# + JSONText.serialize(envelope["payload"] ?? [:])
                    + #","type":"broadcast"}"#
                var texts: [PhoenixMessage.Serializer: String] = [:]
                for member in members where member.receivesOwnBroadcasts || member.origin != origin {
                    let text = texts[member.serializer] ?? PhoenixMessage.encode(topic: topic, event: "broadcast", payloadJSON: body,
                                                                                 serializer: member.serializer)
                    texts[member.serializer] = text
                    if !member.outbox.push(.text(text, droppable: true)) { member.overflow() }
                }
            case "presence":
                let diff = #"{"joins":"# + JSONText.serialize(envelope["joins"] ?? [:]) + #","leaves":"#
                    + JSONText.serialize(envelope["leaves"] ?? [:]) + "}"
                for member in members {
                    let text = PhoenixMessage.encode(topic: topic, event: "presence_diff", payloadJSON: diff, serializer: member.serializer)
                    if !member.outbox.push(.text(text, droppable: false)) { member.overflow() }
                }
            default:
                return
            }
        }
    }
}

/// An outbox item asking the session to send a fresh `presence_state` (after a listener gap).
enum PresenceResync {
    static let prefix = "\u{0}presence-resync:"
    static func marker(_ topic: String) -> String { prefix + topic }
    static func topic(of text: String) -> String? {
        text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
    }
}

import Digest

enum SHA256Hex {
    static func prefix(_ text: String, _ count: Int) -> String { String(SHA256.hex(text).prefix(count)) }
}
