import CivilCalendar
import Foundation

/// Text codec for `timestamptz`, `timestamp` and `date`, to the microsecond.
///
/// Connections run with `TimeZone=UTC` and `DateStyle=ISO`, so the server
/// writes `2026-01-02 03:04:05.123456+00`. Parsing it by hand avoids
/// `DateFormatter`, which is slow, locale-sensitive and drops microseconds.
public enum PostgresTimestamp {
    /// `2026-01-02T03:04:05.123456Z`, an input format every PostgreSQL type of time accepts.
    public static func format(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        var (days, microsOfDay) = micros.quotientAndRemainder(dividingBy: 86_400_000_000)
        if microsOfDay < 0 {
            microsOfDay += 86_400_000_000
            days -= 1
        }
        let date = CivilDate(daysSinceEpoch: Int(days))
        let (year, month, day) = (date.year, date.month, date.day)
        let seconds = Int(microsOfDay / 1_000_000)
        let fraction = Int(microsOfDay % 1_000_000)
        var out = ""
        out.reserveCapacity(32)
        let bc = year <= 0
        pad(&out, bc ? 1 - year : year, 4)
        out += "-"
        pad(&out, month, 2)
        out += "-"
        pad(&out, day, 2)
        out += "T"
        pad(&out, seconds / 3600, 2)
        out += ":"
        pad(&out, seconds / 60 % 60, 2)
        out += ":"
        pad(&out, seconds % 60, 2)
        if fraction != 0 {
            out += "."
            pad(&out, fraction, 6)
        }
        out += "Z"
        if bc { out += " BC" }
        return out
    }

    /// Parses the server's output for `timestamptz`, `timestamp` (read as UTC) and `date`
    /// (midnight UTC), and ISO 8601 as JSON carries it (`T` separator, `Z` or `±hh:mm`).
    public static func parse(_ text: some StringProtocol) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(), scanner.take(UInt8(ascii: "-")),
              let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
              let day = scanner.number(digits: 2),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = 0
        var micros = 0
        var offset = 0
        if scanner.take(UInt8(ascii: " ")) || scanner.take(UInt8(ascii: "T")) {
            guard let hour = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")),
                  let minute = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")),
                  let second = scanner.number(digits: 2),
                  hour <= 24, minute < 60, second < 61
            else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            if scanner.take(UInt8(ascii: ".")) {
                var digits = 0
                while let digit = scanner.digit() {
                    if digits < 6 { micros = micros * 10 + digit }
                    digits += 1
                }
                guard digits > 0 else { return nil }
                if digits < 6 { for _ in digits..<6 { micros *= 10 } }
            }
            if scanner.take(UInt8(ascii: "Z")) {
                offset = 0
            } else if let sign = scanner.sign() {
                guard let hours = scanner.number(digits: 2) else { return nil }
                var minutes = 0
                var secs = 0
                if scanner.take(UInt8(ascii: ":")) {
                    guard let m = scanner.number(digits: 2) else { return nil }
                    minutes = m
                    if scanner.take(UInt8(ascii: ":")) {
                        guard let s = scanner.number(digits: 2) else { return nil }
                        secs = s
                    }
                } else if let m = scanner.number(digits: 2) {
                    minutes = m
                }
                offset = sign * (hours * 3600 + minutes * 60 + secs)
            }
        }
        var astronomicalYear = year
        if scanner.take(Array(" BC".utf8)) { astronomicalYear = 1 - year }
        guard scanner.atEnd else { return nil }
        let days = Int64(CivilDate(year: astronomicalYear, month: month, day: day).daysSinceEpoch)
        let totalSeconds = days * 86_400 + Int64(seconds - offset)
        return Date(timeIntervalSince1970: Double(totalSeconds) + Double(micros) / 1_000_000)
    }

    private static func pad(_ out: inout String, _ value: Int, _ width: Int) {
        let digits = String(value)
        if digits.count < width { out += String(repeating: "0", count: width - digits.count) }
        out += digits
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func take(_ sequence: [UInt8]) -> Bool {
            guard bytes.count - index >= sequence.count,
                  Array(bytes[index..<index + sequence.count]) == sequence
            else { return false }
            index += sequence.count
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - 48)
        }

        mutating func sign() -> Int? {
            if take(UInt8(ascii: "+")) { return 1 }
            if take(UInt8(ascii: "-")) { return -1 }
            return nil
        }

        /// Exactly `digits` digits, or (when nil) one or more.
        mutating func number(digits: Int? = nil) -> Int? {
            var value = 0
            var count = 0
            while let digit = digit() {
                value = value * 10 + digit
                count += 1
                if count == digits { break }
                if count > 9 { return nil }
            }
            if let digits { return count == digits ? value : nil }
            return count > 0 ? value : nil
        }
    }
}
