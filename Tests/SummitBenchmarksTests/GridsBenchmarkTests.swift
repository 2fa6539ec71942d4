import Foundation
import Postgres
import SummitBenchmarks
import SummitTestSupport
import Testing

/// The benchmark's own correctness on a small table; its timings are not asserted.
@Suite struct GridsBenchmarkTests {
    @Test func theFriendReadsExactlyWhatCanViewAdmitsAtEverySize() async throws {
        try await withFreshDatabase { database in
            let results = try await GridsBenchmark(sizes: [2_000, 500], runs: 2).run(on: database) { _ in }
            #expect(results.map(\.moments) == [500, 2_000])
            // Friends/Public moments on the five boards the friend may see: 27 of 40 on each.
            #expect(results.allSatisfy { $0.visible == 135 })
            #expect(results.allSatisfy { $0.viewMilliseconds > 0 && $0.primaryKeyMilliseconds > 0 })
        }
    }
}
