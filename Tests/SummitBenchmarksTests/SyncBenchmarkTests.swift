import Foundation
import Postgres
import SummitBenchmarks
import SummitTestSupport
import Testing

/// The sync benchmark's own correctness on small numbers; its timings are not asserted.
@Suite struct SyncBenchmarkTests {
    @Test func everyPathMovesTheRowsItTimes() async throws {
        try await withFreshDatabase { database in
            try await withTemporaryFolder { folder in
                let result = try await SyncBenchmark(pullRows: 700, pushRows: 250, runs: 1).run(on: database, folder: folder) { _ in }
                #expect(result.pullProtocol.rows == 700 && result.pullPlain.rows == 700)
                #expect(result.pullIntoPhone.rows >= 700 + 7 * 100, "the phone pulls the moments and every square")
                #expect([result.pushProtocol, result.pushPlain, result.pushRules, result.pushFromPhone].allSatisfy { $0.rows == 250 })
                #expect(result.pullRatio > 0 && result.pushRatio > 0)
            }
        }
    }
}
