import CivilCalendar

extension ResortClock {
    /// Everything a lift cost reads from the clock at one instant, worked out
    /// together: the day, the hour and the midnight share one division.
    struct Reading {
        /// Local days since the epoch.
        var day: Int
        /// Local decimal hour, 0 ..< 24 (as `hour(at:)`).
        var hour: Double
        /// The absolute instant of the local midnight starting `day` (as `midnight(atOrBefore:)`).
        var midnight: Double
        /// Saturday or Sunday (as `isWeekend(at:)`).
        var isWeekend: Bool
    }

    /// The same figures `hour(at:)`, `midnight(atOrBefore:)` and
    /// `isWeekend(at:)` give, bit for bit, from one reading of the clock.
    @inline(__always)
    func reading(at instant: Double) -> Reading {
        let local = local(instant)
        let dayStart = (local / 86_400).rounded(.down)
        let day = Int(dayStart)
        return Reading(day: day, hour: (local - dayStart * 86_400) / 3600, midnight: midnight(ofDay: day),
                       isWeekend: Self.isWeekend(day: day))
    }

    /// The absolute instant of the local midnight that starts `day`.
    @inline(__always)
    func midnight(ofDay day: Int) -> Double {
        Double(day) * 86_400 - Double(utcOffsetSeconds)
    }

    /// Saturday or Sunday: 1970-01-01 was a Thursday, so (days + 4) mod 7 is 0 on Sundays.
    @inline(__always)
    static func isWeekend(day: Int) -> Bool {
        let weekday = ((day + 4) % 7 + 7) % 7
        return weekday == 0 || weekday == 6
    }
}
