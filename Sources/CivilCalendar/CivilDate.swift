/// A proleptic Gregorian date and its whole days since 1970-01-01, exact for
/// every date and independent of any time zone database (Howard Hinnant's
/// civil-calendar algorithms). Timestamps in PostgreSQL's wire format, the
/// phones' sync stamps, activity recordings and the resort clock all count
/// days this way.
public struct CivilDate: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative before it).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public var isLeapYear: Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// 1 for January 1st.
    public var dayOfYear: Int {
        let cumulative = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        return cumulative[month - 1] + day + (month > 2 && isLeapYear ? 1 : 0)
    }

    /// Whole days since the epoch of the instant (Unix seconds), floored.
    public static func days(of instant: Double) -> Int {
        Int((instant / 86_400).rounded(.down))
    }
}
