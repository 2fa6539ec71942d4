import Testing
@testable import MeetSolver

@Suite("Milliseconds")
struct MillisecondsTests {
    @Test("rounding to whole milliseconds matches the standard rounding bit for bit, halves and extremes included")
    func matchesStandardRounding() {
        var random = TestRandom(seed: 7)
        var values: [Double] = [0, -0.0, 0.0005, -0.0005, 0.0004999999999999999, 1.2345, -1.2345, 4_503_599_627_370.4965,
                                9_007_199_254_740.993, 1e15, -1e15, Double.leastNonzeroMagnitude, 0.49999999999999994 / 1000]
        for _ in 0..<200_000 {
            let whole = Double(Int64(random.next() % 20_000_000)) - 10_000_000
            values.append(random.uniform(-1e6, 1e6))
            values.append((whole + 0.5) / 1000)
            values.append(whole / 1000 + random.uniform(-0.000001, 0.000001))
        }
        for value in values {
            #expect(Milliseconds.rounded(value) == Int64((value * 1000).rounded()), "\(value)")
        }
    }
}
