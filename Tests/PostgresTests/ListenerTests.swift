import Foundation
import Postgres
import PostgresServer
import SummitTestSupport
import Testing

/// Waits for the next event of a listener, or fails after `timeout`.
func nextEvent(
    _ iterator: inout Unbatched<AsyncStream<[PostgresListenerEvent]>, PostgresListenerEvent>.AsyncIterator, timeout: Duration = .seconds(15)
) async throws -> PostgresListenerEvent {
    let deadline = Task { try await Task.sleep(for: timeout) }
    defer { deadline.cancel() }
    // The stream has no timeout of its own; race it against the clock.
    return try await withThrowingTaskGroup(of: PostgresListenerEvent?.self) { group in
        nonisolated(unsafe) var local = iterator
        group.addTask { await local.next() }
        group.addTask { try await Task.sleep(for: timeout); return nil }
        let first = try await group.next()!
        group.cancelAll()
        iterator = local
        guard let event = first else { throw ListenerTimeout() }
        return event
    }
}

struct ListenerTimeout: Error {}

@Suite struct ListenerTests {
    @Test func notificationsArriveWithChannelPayloadAndSender() async throws {
        try await withFreshDatabase { configuration in
            let listener = try await PostgresListener(configuration, channels: ["pos:resort:1"])
            var events = listener.events.makeAsyncIterator()
            try await PostgresConnection.withConnection(configuration) { sender in
                let pid = await sender.backendPID
                try await sender.query("select pg_notify('pos:resort:1', \("{\"lat\":46.1}"))")
                #expect(try await nextEvent(&events) == .notification(
                    PostgresNotification(channel: "pos:resort:1", payload: "{\"lat\":46.1}", senderPID: pid)))

                try await listener.listen("friends:ann")
                try await sender.query("select pg_notify('friends:ann', 'x')")
                guard case .notification(let second) = try await nextEvent(&events) else { throw ListenerTimeout() }
                #expect(second.channel == "friends:ann")

                try await listener.unlisten("pos:resort:1")
                try await sender.query("select pg_notify('pos:resort:1', 'ignored')")
                try await sender.query("select pg_notify('friends:ann', 'after')")
                guard case .notification(let third) = try await nextEvent(&events) else { throw ListenerTimeout() }
                #expect(third.payload == "after", "an unlistened channel delivers nothing")

                // A notification inside a rolled back transaction is never sent.
                try? await sender.transaction { db in
                    try await db.query("select pg_notify('friends:ann', 'rolled back')")
                    throw Boom()
                }
                try await sender.query("select pg_notify('friends:ann', 'committed')")
                guard case .notification(let fourth) = try await nextEvent(&events) else { throw ListenerTimeout() }
                #expect(fourth.payload == "committed")
            }
            #expect(listener.channels == ["friends:ann"])
            listener.close()
        }
    }

    @Test func channelNamesTheServerWouldTruncateAreRefused() async throws {
        try await withFreshDatabase { configuration in
            let listener = try await PostgresListener(configuration)
            await #expect(throws: PostgresError.self) { try await listener.listen(String(repeating: "x", count: 64)) }
            try await listener.listen(String(repeating: "x", count: 63))
            listener.close()
        }
    }

    @Test func aTerminatedListenerReconnectsAndSaysSo() async throws {
        try await withFreshDatabase { configuration in
            let listener = try await PostgresListener(configuration, channels: ["meets:bob"])
            var events = listener.events.makeAsyncIterator()
            try await PostgresConnection.withConnection(configuration) { admin in
                try await admin.query(
                    "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'summit-listener' and datname = current_database()")
                guard case .reconnected = try await nextEvent(&events) else {
                    Issue.record("expected a reconnected event")
                    return
                }
                try await admin.query("select pg_notify('meets:bob', 'after the gap')")
                guard case .notification(let note) = try await nextEvent(&events) else { throw ListenerTimeout() }
                #expect(note.payload == "after the gap")
            }
            listener.close()
        }
    }

    /// A server restart mid-stream, on a cluster of the test's own so no other test notices.
    @Test func theListenerSurvivesAServerRestart() async throws {
        try await withTemporaryFolder { folder in
            let cluster = EmbeddedCluster(home: folder.appendingPathComponent("cluster"))
            let running = try await cluster.start()
            let configuration = running.configuration(database: "postgres")
            let listener = try await PostgresListener(configuration, channels: ["pos:cell:u0qj8g"])
            var events = listener.events.makeAsyncIterator()

            _ = try await cluster.stop()
            _ = try await cluster.start()

            guard case .reconnected = try await nextEvent(&events, timeout: .seconds(30)) else {
                Issue.record("expected a reconnected event after the restart")
                return
            }
            try await PostgresConnection.withConnection(configuration) { sender in
                try await sender.query("select pg_notify('pos:cell:u0qj8g', 'back')")
            }
            guard case .notification(let note) = try await nextEvent(&events) else { throw ListenerTimeout() }
            #expect(note.payload == "back")
            listener.close()
            _ = try await cluster.stop()
        }
    }
}
