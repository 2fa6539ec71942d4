import Foundation
import Postgres
import SummitBenchmarks
import OwnThread
import SummitTestSupport
import Testing

/// The relay benchmark's own correctness at a small size; its figures are not asserted.
@Suite(.ownThread) struct RelayBenchmarkTests {
    @Test func everyRunPublishesAndOnlyFriendsReceive() async throws {
        try await withFreshDatabase { database in
            let settings = RelayBenchmark.Settings(subscribers: 12, friendsPerSubscriber: 4, connections: 2,
                                                   seconds: 1, warmUpSeconds: 0.2)
            let result = try await RelayBenchmark(settings).run(on: database) { _ in }
            #expect(result.rawPublishesPerSecond > 0 && result.rawDeliveriesPerSecond > 0)
            #expect(result.summitPublishesPerSecond > 0 && result.summitDeliveriesPerSecond > 0)
            #expect(result.halfLoadPublishesPerSecond > 0 && result.halfLoadP99Milliseconds >= result.halfLoadP50Milliseconds)
            #expect(result.misdelivered == 0, "under load, every position still reached friends only")
            #expect(try await PostgresConnection.withConnection(database) { try await $0.query("select count(*) from social.friendships").scalar(Int.self) } == 24)
            // Connections take their people in turn; on a busy machine a short run may not reach all twelve.
            let stored = try await PostgresConnection.withConnection(database) { try await $0.query("select count(distinct user_id) from meet.live_presence").scalar(Int.self) }
            #expect((settings.connections...settings.subscribers).contains(stored),
                    "every publishing connection stored its people's positions (\(stored) people)")
        }
    }
}
