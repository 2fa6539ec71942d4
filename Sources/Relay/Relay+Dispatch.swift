import Foundation
import Postgres

extension Relay {
    /// What one read of the listening connection brought. Positions are queued
    /// first and consumers woken after, once each however many they got.
    func handle(_ batch: [PostgresListenerEvent]) {
        for event in batch { handle(event) }
        wakeConsumers()
    }

    /// One event of the listening connection.
    private func handle(_ event: PostgresListenerEvent) {
        switch event {
        case .notification(let notification):
            statistics.notifications += 1
            deliverToTaps(notification)
            switch RelayChannel(name: notification.channel) {
            case .resortPositions(let resort):
                routePosition(notification.payload, resort: resort)
            case .friends(let user):
                socialChanged(user: user, payload: notification.payload)
            case .meets(let user):
                meetRequestChanged(user: user, payload: notification.payload)
            case .cellPositions, nil:
                break
            }
        case .reconnected(let reason):
            connectionGap(reason: reason)
            tellTapsOfGap(reason)
        }
    }

    /// A packet on `pos:resort:{resort}`: to the subscribers there who admit its sender.
    private func routePosition(_ payload: String, resort: String) {
        guard let bySender = followers[resort] else { return }
        guard let packet = try? PositionPacket(payload: payload) else {
            statistics.malformed += 1
            return
        }
        guard let ids = bySender[packet.userID] else { return }
        let now = options.clock()
        for id in ids {
            guard let record = subscribers[id] else { continue }
            judge(packet, from: .live, for: record, now: now)
        }
    }

    /// Applies the receiver rules and queues a passing packet in the subscriber's
    /// buffer; `wakeConsumers` then hands it over.
    func judge(_ packet: PositionPacket, from source: SubscriberState.Source, for record: SubscriberRecord, now: Date) {
        switch record.state.receive(packet, now: now) {
        case .deliver(let freshness):
            statistics.delivered += 1
            // Packets carry no names: the subscriber's own snapshot has its friends' display names.
            var labelled = packet
            if labelled.name == nil { labelled.name = record.state.filter.label(of: packet.userID) }
            if !record.mailbox.enqueue(.position(FriendPosition(packet: labelled, source: source, freshness: freshness))) {
                statistics.drop(.overflow)
            }
            if !record.awaitingWake {
                record.awaitingWake = true
                awaitingWake.append(record)
            }
        case .hold:
            statistics.held += 1
        case .drop(let reason):
            statistics.drop(reason)
        }
    }

    /// Wakes the consumers of everything `judge` queued.
    func wakeConsumers() {
        for record in awaitingWake {
            record.awaitingWake = false
            record.mailbox.flush()
        }
        awaitingWake.removeAll(keepingCapacity: true)
    }

    /// `friends:{user}`: hold that user's positions and load a newer snapshot.
    private func socialChanged(user: UUID, payload: String) {
        let notice = SocialChangeNotice(payload: payload)
        for id in subscribersByUser[user] ?? [] {
            guard let record = subscribers[id], record.state.machine.phase != .idle else { continue }
            if record.state.socialChanged(generation: notice.generation) {
                Task { await self.refreshSocial(id) }
            }
        }
    }

    /// `meets:{user}`: tell that user's subscribers which request changed.
    private func meetRequestChanged(user: UUID, payload: String) {
        guard let notice = try? MeetRequestNotice(payload: payload) else {
            statistics.malformed += 1
            return
        }
        for id in subscribersByUser[user] ?? [] {
            guard let record = subscribers[id], record.state.machine.phase != .idle else { continue }
            record.mailbox.push(.meetRequest(notice))
        }
    }

    /// The listening connection was lost and is back, LISTENing again: whatever was
    /// notified meanwhile is gone. Tell every subscriber, then re-read their social
    /// snapshots and stored positions, which is everything the database still holds.
    private func connectionGap(reason: String) {
        statistics.gaps += 1
        for (id, record) in subscribers where record.state.machine.phase != .idle {
            record.mailbox.push(.gap(reason: reason))
            record.state.connectionGap()
            Task { await self.refreshSocial(id) }
        }
    }
}
