import CivilCalendar
import Foundation

/// The resort's wall clock: UTC plus the DST-aware offset the weather feed
/// reported. It alone decides lift hours, weekday or weekend queues and the
/// time-of-day demand; no device or server time zone is ever read.
public struct ResortClock: Sendable, Equatable {
    public let utcOffsetSeconds: Int

    public init(utcOffsetSeconds: Int) {
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The offset from the weather feed; else the resort's IANA zone at that
    /// instant; else the legacy longitude estimate (15° per hour).
    public static func resolve(feedOffsetSeconds: Int?, timeZoneIdentifier: String?, longitude: Double, at instant: Double) -> ResortClock {
        if let feedOffsetSeconds { return ResortClock(utcOffsetSeconds: feedOffsetSeconds) }
        if let identifier = timeZoneIdentifier, let zone = TimeZone(identifier: identifier) {
            return ResortClock(utcOffsetSeconds: zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
        }
        return ResortClock(utcOffsetSeconds: Int((longitude / 15 * 3600).rounded()))
    }

    /// Seconds since the epoch on the local wall clock.
    func local(_ instant: Double) -> Double { instant + Double(utcOffsetSeconds) }

    /// Local decimal hour, 0 ..< 24.
    func hour(at instant: Double) -> Double {
        let local = local(instant)
        let seconds = local - (local / 86_400).rounded(.down) * 86_400
        return seconds / 3600
    }

    /// Saturday or Sunday on the resort's calendar.
    func isWeekend(at instant: Double) -> Bool {
        Self.isWeekend(day: CivilDate.days(of: local(instant)))
    }

    /// The absolute instant of the latest local midnight at or before `instant`.
    func midnight(atOrBefore instant: Double) -> Double {
        midnight(ofDay: CivilDate.days(of: local(instant)))
    }
}
