import Foundation
import OwnThread
import SummitBenchmarks
import SummitTestSupport
import Testing

/// The push benchmark's own correctness on short runs; its figures are not asserted.
@Suite(.ownThread) struct PushBenchmarkTests {
    @Test func bothRunsDeliverEverythingOnOneConnectionEach() async throws {
        try await withTemporaryFolder { folder in
            let settings = PushBenchmark.Settings(seconds: 0.5, delayMilliseconds: 50, concurrency: 8)
            let result = try await PushBenchmark(settings).run(workspace: TestServer.workspace.root, folder: folder) { _ in }
            for figure in [result.oneAtATime, result.multiplexed] {
                #expect(figure.delivered > 0 && figure.failed == 0, "\(figure)")
                #expect(figure.connections == 1, "a run uses one connection: \(figure)")
                #expect(figure.notificationsPerSecond > 0 && figure.seconds >= 0.5)
            }
            #expect(result.oneAtATime.concurrency == 1 && result.oneAtATime.mostInFlight == 1, "\(result.oneAtATime)")
            #expect(result.multiplexed.concurrency == 8 && result.multiplexed.mostInFlight > 1, "\(result.multiplexed)")
            #expect(result.ratio > 0)
        }
    }
}
