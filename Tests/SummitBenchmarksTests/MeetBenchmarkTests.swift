import Foundation
import Postgres
import SummitBenchmarks
import SummitTestSupport
import Testing

/// The meet benchmark's own correctness at a small size; its figures are not asserted.
@Suite struct MeetBenchmarkTests {
    @Test func allThreeWaysFindAMeetingPointOnTheSameGraph() async throws {
        try await withFreshDatabase { database in
            let available = try await PostgresConnection.withConnection(database) { try await $0.query("select count(*) from pg_available_extensions where name = 'pgrouting'").scalar(Int.self) }
            try #require(available > 0, "pgRouting is not installed on this server: run scripts/packages --test (it installs postgresql-15-pgrouting)")
            let input = try MeetBenchmark.synthetic(seed: 7, size: 1)
            let results = try await MeetBenchmark(inputs: [input], runs: 1).run(on: database) { _ in }
            let result = try #require(results.first)
            #expect(result.edges == input.graph.edges.count && result.rendezvousPoints == input.graph.rendezvousPoints.count)
            for found in [result.summitRendezvous, result.floorRendezvous, result.pgRoutingRendezvous] {
                #expect(input.graph.rendezvousPoints.contains { $0.id == found }, "\(found) is not a catalog point")
            }
            #expect(result.summitMilliseconds > 0 && result.floorMilliseconds > 0 && result.pgRoutingMilliseconds > 0)
            #expect(result.labelsPerReachedNode >= 1 && result.labelsPerReachedNode <= 8)
            #expect(MeetBenchmark.table(results, configuration: "test").contains("Summit/floor"))
        }
    }
}
