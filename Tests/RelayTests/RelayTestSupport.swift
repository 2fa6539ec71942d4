import Foundation
import Postgres
import Relay
import SummitTestSupport
import Testing

/// People and friendships in a test database, made the way the apps make them:
/// accounts in auth.users, then the social RPCs as each user.
struct People {
    let db: PostgresConnection

    func add(_ username: String) async throws -> UUID {
        try await db.query("""
            insert into auth.users (email, raw_user_meta_data)
            values (\(username + "@example.test"), jsonb_build_object('username', \(username)::text)) returning id
            """).scalar(UUID.self)
    }

    func befriend(_ a: UUID, _ b: UUID) async throws {
        _ = try await db.query("select social.send_friend_request(\(b))", as: .user(a))
        let answer = try await db.query("select social.send_friend_request(\(a))", as: .user(b)).scalar(String.self)
        #expect(answer == "friends")
    }

    func unfriend(_ a: UUID, _ b: UUID) async throws {
        _ = try await db.query("select social.remove_friend(\(b))", as: .user(a))
    }

    func block(_ blocker: UUID, _ blocked: UUID) async throws {
        _ = try await db.query("select social.block_user(\(blocked))", as: .user(blocker))
    }

    @discardableResult
    func publish(_ user: UUID, resort: String = "vail", latitude: Double = 39.6403, longitude: Double = -106.3742,
                 capturedAt: Date = Date(), accuracy: Double? = 6) async throws -> PositionPublisher.Outcome {
        try await PositionPublisher.publish(
            PositionSample(resortID: resort, latitude: latitude, longitude: longitude, capturedAt: capturedAt, accuracy: accuracy),
            as: user, on: db)
    }

    /// A notification on `meets:{user}` that only marks a point in the stream: once a
    /// subscriber has it, the relay has handled everything notified before it.
    func mark(_ users: [UUID], _ label: String) async throws {
        for user in users {
            try await db.query("select pg_notify(\("meets:" + user.uuidString.lowercased()), \(#"{"table":"marker","id":"\#(label)","event":"mark"}"#))")
        }
    }
}

/// Everything one subscription received, recorded as it arrives.
actor EventLog {
    private(set) var events: [RelayEvent] = []

    /// Starts recording `subscription` in the background.
    static func recording(_ subscription: RelaySubscription) -> EventLog {
        let log = EventLog()
        Task {
            while let batch = await subscription.nextBatch() { await log.append(batch) }
        }
        return log
    }

    func append(_ batch: [RelayEvent]) { events.append(contentsOf: batch) }

    func positions(from sender: UUID) -> [FriendPosition] {
        events.compactMap { event in
            if case .position(let position) = event, position.packet.userID == sender { return position }
            return nil
        }
    }

    var allPositions: [FriendPosition] {
        events.compactMap { event in
            if case .position(let position) = event { return position }
            return nil
        }
    }

    /// Meet-request notices, markers left out.
    var meetNotices: [MeetRequestNotice] {
        events.compactMap { event in
            if case .meetRequest(let notice) = event, notice.table != "marker" { return notice }
            return nil
        }
    }

    func hasMark(_ label: String) -> Bool {
        events.contains { event in
            if case .meetRequest(let notice) = event { return notice.table == "marker" && notice.id == label }
            return false
        }
    }

    func contains(where predicate: @Sendable (RelayEvent) -> Bool) -> Bool { events.contains(where: predicate) }

    /// Waits until `condition` holds for the log, or fails after `timeout`.
    func waitUntil(_ what: String, timeout: Duration = .seconds(15),
                   _ condition: @Sendable (EventLog) async -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(await condition(self)) {
            guard ContinuousClock.now < deadline else {
                throw WaitTimeout(what: what, events: events)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The first position from `sender` captured at `micros`, waited for.
    func position(from sender: UUID, capturedMicros micros: Int64) async throws -> FriendPosition {
        try await waitUntil("a position from \(sender) captured at \(micros)") { log in
            await log.positions(from: sender).contains { $0.packet.capturedMicros == micros }
        }
        return positions(from: sender).first { $0.packet.capturedMicros == micros }!
    }

    func waitForMark(_ label: String) async throws {
        try await waitUntil("the mark \(label)") { await $0.hasMark(label) }
    }
}

struct WaitTimeout: Error, CustomStringConvertible {
    var what: String
    var events: [RelayEvent]
    var description: String { "timed out waiting for \(what); received: \(events)" }
}

/// A fresh database with a superuser connection, People, and a relay; closed afterwards.
func withRelay(
    options: Relay.Options = Relay.Options(),
    _ body: (PostgresConfiguration, People, Relay) async throws -> Void
) async throws {
    try await withFreshDatabase { configuration in
        try await PostgresConnection.withConnection(configuration) { db in
            let relay = try await Relay(configuration, options: options)
            do {
                try await body(configuration, People(db: db), relay)
                await relay.close()
            } catch {
                await relay.close()
                throw error
            }
        }
    }
}
