/// Decimal numbers straight from bytes: `-12.5`, `1e3`, `+0.000001`.
///
/// Up to 19 significant digits are kept exactly and scaled once, so values
/// written with at most 15 digits (every coordinate and elevation we meet)
/// come back as the nearest double.
enum DecimalParser {
    private static let powers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        var end = range.upperBound
        while i < end, isSpace(bytes[i]) { i += 1 }
        while end > i, isSpace(bytes[end - 1]) { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == 0x2D { negative = true; i += 1 } else if bytes[i] == 0x2B { i += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var sawDigit = false
        while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            sawDigit = true
            if significant < 19 {
                mantissa = mantissa * 10 + UInt64(bytes[i] - 0x30)
                if mantissa > 0 { significant += 1 }
            } else {
                exponent += 1
            }
            i += 1
        }
        if i < end, bytes[i] == 0x2E {
            i += 1
            while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                sawDigit = true
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[i] - 0x30)
                    if mantissa > 0 { significant += 1 }
                    exponent -= 1
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            var expNegative = false
            if i < end, bytes[i] == 0x2D { expNegative = true; i += 1 } else if i < end, bytes[i] == 0x2B { i += 1 }
            var value = 0
            var any = false
            while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                value = min(value * 10 + Int(bytes[i] - 0x30), 10_000)
                any = true
                i += 1
            }
            guard any else { return nil }
            exponent += expNegative ? -value : value
        }
        guard i == end else { return nil }
        var result = Double(mantissa)
        if exponent < 0 {
            var remaining = -exponent
            while remaining > 0 {
                let step = min(remaining, 22)
                result /= powers[step]
                remaining -= step
            }
        } else if exponent > 0 {
            var remaining = exponent
            while remaining > 0 {
                let step = min(remaining, 22)
                result *= powers[step]
                remaining -= step
            }
        }
        return negative ? -result : result
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
