/// Decimal text → numbers without building intermediate strings.
///
/// Coordinates dominate OSM input; almost all have at most 15 significant digits
/// and a handful of decimals, where Clinger's fast path (an exact integer
/// divided or multiplied by an exact power of ten) is correctly rounded. Anything
/// else falls back to the standard library's correctly rounded parser.
enum DecimalParsing {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    static func double(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        var exact = true
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if mantissa == 0 && byte == UInt8(ascii: "0") && !inFraction {
                    // leading zero of the integer part
                } else {
                    digits += 1
                    if digits > 15 { exact = false; break }
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                }
                if inFraction { fractionDigits += 1 }
            } else {
                exact = false   // exponent: take the general path
                break
            }
            index += 1
        }
        if exact, fractionDigits <= 22 {
            var value = Double(mantissa)
            if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
            return negative ? -value : value
        }
        let text = String(decoding: bytes[range], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func int64(_ bytes: [UInt8], _ range: Range<Int>) -> Int64? {
        var index = range.lowerBound
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        guard index < range.upperBound else { return nil }
        var value: Int64 = 0
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }
}
