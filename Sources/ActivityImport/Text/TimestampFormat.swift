import CivilCalendar
import Foundation

/// Timestamps as recordings write them, parsed straight from bytes (no
/// DateFormatter: it is slow and locale-sensitive).
public enum TimestampFormat {
    /// `YYYY-MM-DD[T ]HH:MM:SS[.fff…][Z|±HH:MM|±HHMM| ±HHMM]` → Unix seconds.
    /// A time without a zone is UTC, as GPX and TCX require.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        func digits(_ count: Int) -> Int? {
            guard i + count <= end else { return nil }
            var value = 0
            for _ in 0..<count {
                let d = Int(bytes[i]) - 48
                guard d >= 0, d <= 9 else { return nil }
                value = value * 10 + d
                i += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < end, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
              i < end, bytes[i] == 0x54 || bytes[i] == 0x20 || bytes[i] == 0x74 else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2),
              (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else { return nil }
        var fraction = 0.0
        if i < end, bytes[i] == 0x2E || bytes[i] == 0x2C {
            i += 1
            var scale = 0.1
            var any = false
            while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                fraction += Double(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1
                any = true
            }
            guard any else { return nil }
        }
        while i < end, bytes[i] == 0x20 { i += 1 }
        var offsetSeconds = 0
        if i < end {
            switch bytes[i] {
            case 0x5A, 0x7A: // Z
                i += 1
            case 0x2B, 0x2D:
                let sign = bytes[i] == 0x2D ? -1 : 1
                i += 1
                guard let hours = digits(2) else { return nil }
                _ = expect(0x3A)
                let minutes = digits(2) ?? 0
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        while i < end, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        guard i == end else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Double(seconds) + fraction
    }

    public static func parse(_ text: String) -> Double? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { parse(UnsafeBufferPointer($0), 0..<$0.count) }
    }

    /// `2024-01-25T16:13:52Z` (whole seconds, UTC) for messages.
    public static func iso(_ time: Double) -> String {
        let date = Date(timeIntervalSince1970: time.rounded(.down))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { String(format: "%02d", v ?? 0) }
        return "\(String(format: "%04d", c.year ?? 0))-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }
}
