import Foundation
import Postgres
import Summit
import Testing

/// The meet benchmark's own correctness at a small size; its figures are not asserted.
@Suite struct MeetBenchmarkTests {
    @Test func allThreeWaysFindAMeetingPointOnTheSameGraph() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            let available = try await cli.scalar("select count(*) from pg_available_extensions where name = 'pgrouting'", as: Int.self)
            guard available > 0 else {
                print("⚠️  SKIPPED MeetBenchmarkTests: pgRouting is not installed (scripts/packages --bench installs it)")
                return
            }
            let input = try MeetBenchmark.synthetic(seed: 7, size: 1)
            let results = try await MeetBenchmark(inputs: [input], runs: 1).run(on: cli.database) { _ in }
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
