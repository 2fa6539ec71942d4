import Foundation
@testable import Postgres
import Testing

/// The text codec for times, without a server: every accepted shape.
@Suite struct TimestampCodecTests {
    @Test(arguments: [
        ("2026-01-02 03:04:05+00", 1_767_323_045.0),
        ("2026-01-02T03:04:05Z", 1_767_323_045.0),
        ("2026-01-02 03:04:05.25-01", 1_767_326_645.25),
        ("2026-01-02T03:04:05.123456+00:00", 1_767_323_045.123456),
        ("1969-12-31 23:59:59.5+00", -0.5),
        ("2026-01-02", 1_767_312_000.0),
    ])
    func parses(_ text: String, _ seconds: Double) {
        let date = PostgresTimestamp.parse(text)
        #expect(date.map { abs($0.timeIntervalSince1970 - seconds) < 0.000_001 } == true, "\(text)")
    }

    @Test(arguments: ["", "2026", "2026-13-01", "2026-01-02 25:00", "2026-01-02 03:04:05 junk", "infinity"])
    func rejects(_ text: String) {
        #expect(PostgresTimestamp.parse(text) == nil)
    }

    @Test func formatThenParseIsIdentity() {
        for seconds in stride(from: -3_000_000_000.0, to: 5_000_000_000.0, by: 123_456_789.012345) {
            let date = Date(timeIntervalSince1970: seconds)
            let back = PostgresTimestamp.parse(PostgresTimestamp.format(date))
            #expect(back.map { abs($0.timeIntervalSince(date)) < 0.000_001 } == true)
        }
    }
}
