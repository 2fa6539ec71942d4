import Foundation
import Relay

/// Row changes for postgres_changes, per user: while any of a process's sockets has
/// a changes binding for a user, the process LISTENs on `changes:{user}` (which
/// `private.realtime_change` tells, ids only) and hands each notice to those
/// sessions, which re-read the row as their subscriber.
final class ChangeFeed: @unchecked Sendable {
    struct Member: Sendable {
        var outbox: Outbox
        var overflow: @Sendable () -> Void
    }

    private struct Entry {
        var members: [Int: Member] = [:]
        var tap: Task<RelayTap, any Error>?
    }

    private let relay: Relay
    private let lock = NSLock()
    private var users: [UUID: Entry] = [:]

    init(relay: Relay) {
        self.relay = relay
    }

    static func channel(of user: UUID) -> String { "changes:" + user.uuidString.lowercased() }

    /// Follows `user`'s changes for session `session`; returns once listening.
    func join(_ user: UUID, session: Int, _ member: Member) async throws {
        let task: Task<RelayTap, any Error> = lock.withLock {
            users[user, default: Entry()].members[session] = member
            if let tap = users[user]?.tap { return tap }
            let relay = relay
            weak let hub = self
            let tap = Task {
                try await relay.tap(Self.channel(of: user)) { event in hub?.deliver(user, event) }
            }
            users[user]?.tap = tap
            return tap
        }
        do {
            _ = try await task.value
        } catch {
            await leave(user, session: session)
            throw error
        }
    }

    func leave(_ user: UUID, session: Int) async {
        let tap: Task<RelayTap, any Error>? = lock.withLock {
            guard users[user]?.members.removeValue(forKey: session) != nil, users[user]?.members.isEmpty == true else { return nil }
            defer { users[user] = nil }
            return users[user]?.tap
        }
        if let tap, let relayTap = try? await tap.value { await relay.untap(relayTap) }
    }

    private func deliver(_ user: UUID, _ event: RelayTapEvent) {
        guard case .notification(let payload) = event, let notice = ChangeNotice(payload: payload, user: user) else { return }
        let members: [Member] = lock.withLock { users[user].map { Array($0.members.values) } ?? [] }
        for member in members where !member.outbox.push(.change(notice)) { member.overflow() }
    }
}
