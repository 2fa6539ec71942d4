import CivilCalendar
import Foundation
import Testing

/// Calendar days against Foundation's Gregorian calendar in UTC, day by day.
@Suite struct CivilDateTests {
    @Test func everyDayOfFourCenturiesMatchesFoundationBothWays() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let first = CivilDate(year: 1900, month: 1, day: 1).daysSinceEpoch
        let end = CivilDate(year: 2300, month: 1, day: 1).daysSinceEpoch
        #expect(end - first == 146_097, "four Gregorian centuries are 146,097 days")
        var mismatches: [String] = []
        for days in first..<end {
            let date = CivilDate(daysSinceEpoch: days)
            let expected = calendar.dateComponents([.year, .month, .day, .dayOfYear],
                                                   from: Date(timeIntervalSince1970: Double(days) * 86_400))
            if date.year != expected.year || date.month != expected.month || date.day != expected.day
                || date.dayOfYear != expected.dayOfYear || date.daysSinceEpoch != days {
                mismatches.append("day \(days): \(date) against \(expected)")
            }
            if mismatches.count > 5 { break }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func theEpochAndLeapDays() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(CivilDate(daysSinceEpoch: -1) == CivilDate(year: 1969, month: 12, day: 31))
        #expect(CivilDate(year: 2000, month: 2, day: 29).isLeapYear && !CivilDate(year: 1900, month: 1, day: 1).isLeapYear)
        #expect(CivilDate(year: 2024, month: 12, day: 31).dayOfYear == 366)
        #expect(CivilDate.days(of: -0.5) == -1, "instants before the epoch floor to the previous day")
    }
}
