/// Doubles in the canonical wire form.
///
/// The graph's content hash is taken over its JSON text, and the TypeScript
/// builder must produce the same bytes, so numbers follow ECMAScript's
/// `Number.prototype.toString`: the shortest digits that round-trip, written
/// in plain decimal for 1e-7 ≤ |x| < 1e21 and exponent form otherwise. Integral
/// values therefore print without a fraction ("5"), and -0 prints as "0".
enum CanonicalNumber {
    /// Appends the canonical text of a finite double.
    static func append(_ value: Double, to out: inout [UInt8]) {
        precondition(value.isFinite, "canonical JSON carries finite numbers only")
        if value == 0 { out.append(UInt8(ascii: "0")); return }
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value), to: &out)
            return
        }
        // Swift's description is the shortest round-trip digit string; only its
        // layout differs from ECMAScript, so re-lay the digits.
        let (negative, digits, pointPosition) = decompose(value.description)
        if negative { out.append(UInt8(ascii: "-")) }
        let k = digits.count
        let n = pointPosition
        if k <= n && n <= 21 {
            out.append(contentsOf: digits)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n - k))
        } else if 0 < n && n <= 21 {
            out.append(contentsOf: digits[0..<n])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[n...])
        } else if -6 < n && n <= 0 {
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -n))
            out.append(contentsOf: digits)
        } else {
            out.append(digits[0])
            if k > 1 {
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits[1...])
            }
            out.append(UInt8(ascii: "e"))
            let exponent = n - 1
            out.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendInteger(Int64(abs(exponent)), to: &out)
        }
    }

    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var reversed = [UInt8]()
        repeat {
            reversed.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out.append(contentsOf: reversed.reversed())
    }

    /// Splits Swift's shortest representation ("1.25", "1e-07", "1.5e+22")
    /// into sign, significant digits without leading/trailing zeros, and the
    /// decimal point position n such that value = 0.d1d2…dk × 10^n.
    private static func decompose(_ text: String) -> (Bool, [UInt8], Int) {
        var bytes = Array(text.utf8)
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes.removeFirst() }
        var exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            exponent = Int(String(decoding: bytes[(e + 1)...], as: UTF8.self)) ?? 0
            bytes.removeSubrange(e...)
        }
        var integerPart = bytes
        var fractionPart: [UInt8] = []
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")) {
            integerPart = Array(bytes[..<dot])
            fractionPart = Array(bytes[(dot + 1)...])
        }
        var digits = integerPart + fractionPart
        var pointPosition = integerPart.count + exponent
        while digits.first == UInt8(ascii: "0") { digits.removeFirst(); pointPosition -= 1 }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty { digits = [UInt8(ascii: "0")]; pointPosition = 1 }
        return (negative, digits, pointPosition)
    }
}
