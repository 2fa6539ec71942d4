import Foundation
import Postgres
import Relay
import SummitTestSupport
import Testing

/// Raw taps on the relay's listening connection: what the gateway's broadcast,
/// presence and row-change channels ride on.
@Suite struct RelayTapTests {
    /// Collects what a tap hears.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [RelayTapEvent] = []
        func add(_ event: RelayTapEvent) { lock.withLock { events.append(event) } }
        var all: [RelayTapEvent] { lock.withLock { events } }

        func wait(for event: RelayTapEvent) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while !all.contains(event) {
                guard ContinuousClock.now < deadline else { throw WaitTimeout(what: "\(event)", events: []) }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    @Test func tapsHearTheirChannelShareItsListenAndLetGo() async throws {
        try await withRelay { _, people, relay in
            let db = people.db
            let first = Heard(), second = Heard()
            let one = try await relay.tap("rt:probe") { first.add($0) }
            let two = try await relay.tap("rt:probe") { second.add($0) }
            #expect(relay.listeningChannels == ["rt:probe"])
            #expect(await relay.registry.references(to: "rt:probe") == 2, "one LISTEN, two holders")
            try await db.query("select pg_notify('rt:probe', 'hello')")
            try await first.wait(for: .notification("hello"))
            try await second.wait(for: .notification("hello"))

            await relay.untap(one)
            try await db.query("select pg_notify('rt:probe', 'again')")
            try await second.wait(for: .notification("again"))
            #expect(!first.all.contains(.notification("again")), "an untapped handler hears nothing more")
            await relay.untap(two)
            #expect(relay.listeningChannels.isEmpty, "the last one out unlistens")
            #expect(await relay.currentStatistics.tapped == 3)
        }
    }
}
