import Foundation
import MountainGraph
@testable import SummitBenchmarks
import SummitTestSupport
import Testing

/// The graph benchmark's own correctness; its timings are not asserted.
@Suite struct GraphBenchmarkTests {
    @Test func everyInputIsMeasuredAndTheTableNamesTheTargets() throws {
        let inputs = [1, 2].map { size in
            GraphBenchmark.Input(name: "synthetic \(size)x", bytes: SyntheticResort(seed: 7, size: size).overpassJSON(),
                                 size: size, elevation: nil)
        }
        let results = try GraphBenchmark(inputs: inputs, runs: 1).run { _ in }
        #expect(results.map(\.input) == ["synthetic 1x", "synthetic 2x"])
        #expect(results[1].bytes > results[0].bytes && results[1].edges > results[0].edges)
        #expect(results.allSatisfy { $0.decodeMilliseconds > 0 && $0.buildMilliseconds > 0 && $0.publishMilliseconds > 0 })
        let table = GraphBenchmark.table(results)
        #expect(table.contains("target: build ≤ 3x the decode floor"))
        #expect(table.contains("target: cost linear in size"))
    }

    @Test func theScalingExponentIsTheLogLogSlope() {
        let linear = [(1.0, 3.0), (10.0, 30.0), (100.0, 300.0)]
        let quadratic = [(1.0, 2.0), (10.0, 200.0), (100.0, 20_000.0)]
        #expect(abs(GraphBenchmark.scalingExponent(linear.map { (size: $0.0, time: $0.1) }) - 1) < 1e-9)
        #expect(abs(GraphBenchmark.scalingExponent(quadratic.map { (size: $0.0, time: $0.1) }) - 2) < 1e-9)
    }
}
