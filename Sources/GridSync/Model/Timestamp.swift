import CivilCalendar
import Foundation

/// An instant to the microsecond, as PostgreSQL's `timestamptz` holds it.
///
/// Last-write-wins compares `updated_at` values exactly, so they never pass
/// through `Date` (a floating-point number of seconds that rounds microseconds).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public init(_ date: Date) {
        microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    public static func now() -> Timestamp { Timestamp(Date()) }

    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    public static func + (a: Timestamp, seconds: Double) -> Timestamp {
        Timestamp(microseconds: a.microseconds + Int64((seconds * 1_000_000).rounded()))
    }

    public static func - (a: Timestamp, seconds: Double) -> Timestamp { a + (-seconds) }

    /// Seconds from `b` to `a`.
    public static func - (a: Timestamp, b: Timestamp) -> Double {
        Double(a.microseconds - b.microseconds) / 1_000_000
    }

    /// `2026-01-02T03:04:05.123456Z`: what the server parses, and what sorts as it compares.
    public var iso: String {
        let (days, micros) = Self.split(microseconds, 86_400_000_000)
        let date = CivilDate(daysSinceEpoch: days)
        let seconds = micros / 1_000_000
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", date.year, date.month, date.day,
                      Int(seconds / 3600), Int(seconds / 60 % 60), Int(seconds % 60), Int(micros % 1_000_000))
    }

    /// The calendar day (UTC) as `2026-01-02`.
    public var day: String {
        let date = CivilDate(daysSinceEpoch: Self.split(microseconds, 86_400_000_000).0)
        return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }

    public var description: String { iso }

    /// Parses ISO 8601 as PostgreSQL writes `timestamptz` (in JSON or as text): `T` or a
    /// space between date and time, up to six fraction digits, `Z`, `±hh`, `±hh:mm` or
    /// nothing (UTC). A bare date is its midnight, UTC.
    public init?(parsing text: some StringProtocol) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func take(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var micros: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ") {
            index += 1
            guard let hour = number(2), take(":"), let minute = number(2), take(":"), let second = number(2) else {
                return nil
            }
            micros = Int64(hour * 3600 + minute * 60 + second) * 1_000_000
            if take(".") {
                var scale: Int64 = 100_000
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    micros += Int64(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
            }
            if index < bytes.count {
                if take("Z") {
                } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    let sign: Int64 = bytes[index] == UInt8(ascii: "+") ? 1 : -1
                    index += 1
                    guard let hours = number(2) else { return nil }
                    var minutes = 0
                    if take(":") {
                        guard let value = number(2) else { return nil }
                        minutes = value
                    } else if let value = number(2) {
                        minutes = value
                    }
                    micros -= sign * Int64(hours * 3600 + minutes * 60) * 1_000_000
                } else {
                    return nil
                }
            }
        }
        guard index == bytes.count else { return nil }
        microseconds = Int64(CivilDate(year: year, month: month, day: day).daysSinceEpoch) * 86_400_000_000 + micros
    }

    private static func split(_ value: Int64, _ unit: Int64) -> (Int, Int64) {
        var (quotient, remainder) = value.quotientAndRemainder(dividingBy: unit)
        if remainder < 0 {
            remainder += unit
            quotient -= 1
        }
        return (Int(quotient), remainder)
    }

}
