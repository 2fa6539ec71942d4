/// Proleptic Gregorian calendar arithmetic on whole days since 1970-01-01,
/// independent of any time zone database.
struct CivilDate: Sendable, Equatable {
    var year: Int
    var month: Int
    var day: Int

    /// The date `days` days after 1970-01-01 (negative before it).
    init(daysSinceEpoch days: Int) {
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

    var isLeapYear: Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// 1 for January 1st.
    var dayOfYear: Int {
        let cumulative = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        return cumulative[month - 1] + day + (month > 2 && isLeapYear ? 1 : 0)
    }

    /// Whole days since the epoch of the instant (Unix seconds), floored.
    static func days(of instant: Double) -> Int {
        Int((instant / 86_400).rounded(.down))
    }
}
