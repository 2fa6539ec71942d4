import Foundation
import Postgres

extension Relay {
    /// `social.get_social_snapshot()` as `user`.
    func loadSnapshot(of user: UUID) async throws -> SocialSnapshot {
        let json = try await reader.withConnection { connection in
            try await connection.query("select social.get_social_snapshot()::text", as: .user(user)).scalar(String.self)
        }
        statistics.snapshotsLoaded += 1
        return try SocialSnapshot(json: json)
    }

    /// Applies a snapshot to a subscriber: the filter, the follower index, a `social`
    /// event when it changed anything, and the held positions judged again.
    func apply(_ snapshot: SocialSnapshot, to record: SubscriberRecord, gapsAtLoad: Int) {
        let before = record.state.filter.generation
        let released = record.state.apply(snapshot, gapsAtLoad: gapsAtLoad)
        reindex(record)
        if record.state.filter.generation != before {
            record.mailbox.push(.social(generation: record.state.filter.generation,
                                        friends: record.state.filter.admittedIDs.sorted { $0.uuidString < $1.uuidString }))
        }
        let now = options.clock()
        for packet in released { judge(packet, from: .live, for: record, now: now) }
        wakeConsumers()
    }

    /// One stored row of `meet.live_presence`.
    private struct StoredPosition: Decodable, Sendable {
        var userId: UUID
        var resortId: String
        var lat: Double
        var lon: Double
        var accuracyM: Double?
        var altitudeM: Double?
        var speedMps: Double?
        var headingDeg: Double?
        var nodeId: String?
        var edgeId: String?
        var edgeFraction: Double?
        var capturedMicros: Int64
    }

    /// Reads the resort's stored positions as the subscriber — row level security
    /// admits only unblocked friends — and judges each like a live packet.
    func hydrate(_ record: SubscriberRecord, resort: String, attempt: Int) async throws {
        let user = record.state.user
        let rows = try await reader.withConnection { connection in
            try await connection.query("""
                select user_id, resort_id, lat, lon, accuracy_m, altitude_m, speed_mps, heading_deg,
                       node_id, edge_id, edge_fraction,
                       (extract(epoch from captured_at) * 1000000)::int8 as captured_micros
                from meet.live_presence
                where resort_id = \(resort)
                order by captured_at
                """, as: .user(user)).decode(StoredPosition.self)
        }
        statistics.storedPositionsRead += rows.count
        guard record.state.machine.isCurrent(attempt), record.state.machine.resort == resort else { return }
        let now = options.clock()
        for row in rows {
            let packet = PositionPacket(
                userID: row.userId,
                latitude: row.lat, longitude: row.lon, capturedMicros: row.capturedMicros,
                accuracy: row.accuracyM, altitude: row.altitudeM, speed: row.speedMps, heading: row.headingDeg,
                nodeID: row.nodeId, edgeID: row.edgeId, edgeFraction: row.edgeFraction, resortID: row.resortId)
            judge(packet, from: .stored, for: record, now: now)
        }
        wakeConsumers()
    }

    /// Loads snapshots until the subscriber's filter is current (retrying with backoff
    /// while the database is unreachable), then re-reads the stored positions: a new
    /// friend's, or everything a connection gap hid.
    func refreshSocial(_ id: Int) async {
        guard let record = subscribers[id], !record.refreshing else { return }
        record.refreshing = true
        defer { record.refreshing = false }
        var delay = Duration.milliseconds(50)
        var needsStoredPositions = true
        while subscribers[id] === record, !isClosed, record.state.isWaitingForSocial || needsStoredPositions {
            do {
                if record.state.isWaitingForSocial {
                    let gaps = record.state.gaps
                    let snapshot = try await loadSnapshot(of: record.state.user)
                    guard subscribers[id] === record else { return }
                    apply(snapshot, to: record, gapsAtLoad: gaps)
                    needsStoredPositions = true
                    // Still behind (a newer change, or a gap, came meanwhile): load again, politely.
                    if record.state.isWaitingForSocial {
                        try? await Task.sleep(for: delay)
                        delay = min(delay * 2, .seconds(2))
                        continue
                    }
                }
                if record.state.machine.phase.acceptsPositions, let resort = record.state.machine.resort {
                    try await hydrate(record, resort: resort, attempt: record.state.machine.attempt)
                }
                needsStoredPositions = false
            } catch {
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
    }
}
