import JSONDepth

/// A pull parser over UTF-8 JSON bytes.
///
/// OSM extracts run to tens of megabytes; reading them through a generic tree
/// (or Foundation's JSONSerialization) costs more than the graph build itself.
/// The scanner lets a decoder walk the document once, reading only the fields it
/// needs and skipping the rest, and reports the byte offset of anything wrong.
struct JSONScanner {
    let bytes: [UInt8]
    private(set) var position = 0

    /// Refuses a document nested deeper than `JSONDepth.limit` before anything
    /// reads it, so `skipValue()` and the readers built on `readObject` and
    /// `readArray` recurse at most that deep.
    init(bytes: [UInt8]) throws(JSONError) {
        do {
            try JSONDepth.check(bytes)
        } catch {
            throw JSONError(message: error.reason, offset: error.offset)
        }
        self.bytes = bytes
        // A UTF-8 byte order mark is legal in front of a JSON text from some editors.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    // MARK: - Structure

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The next significant byte without consuming it, or nil at the end.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func expect(_ byte: UInt8) throws(JSONError) {
        skipWhitespace()
        guard position < bytes.count else { throw error("expected '\(Character(Unicode.Scalar(byte)))' but the input ended") }
        guard bytes[position] == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))' but found '\(Character(Unicode.Scalar(bytes[position])))'")
        }
        position += 1
    }

    /// Calls `body` with each key of an object, positioned at its value; the
    /// body must consume the value (read it or `skipValue()`).
    mutating func readObject(_ body: (inout JSONScanner, String) throws(JSONError) -> Void) throws(JSONError) {
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
            skipWhitespace()
            guard position < bytes.count else { throw error("object is not closed") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return }
            throw error("expected ',' or '}' in object")
        }
    }

    /// Calls `body` for each element of an array, positioned at the element.
    mutating func readArray(_ body: (inout JSONScanner) throws(JSONError) -> Void) throws(JSONError) {
        try expect(UInt8(ascii: "["))
        if peek() == UInt8(ascii: "]") { position += 1; return }
        while true {
            try body(&self)
            skipWhitespace()
            guard position < bytes.count else { throw error("array is not closed") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return }
            throw error("expected ',' or ']' in array")
        }
    }

    /// True (and consumed) if the next value is `null`.
    mutating func readNullIfPresent() throws(JSONError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    mutating func readBool() throws(JSONError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try readLiteral("true"); return true
        case UInt8(ascii: "f"): try readLiteral("false"); return false
        default: throw error("expected true or false")
        }
    }

    private mutating func readLiteral(_ literal: String) throws(JSONError) {
        let expected = literal.utf8
        guard position + expected.count <= bytes.count,
              bytes[position..<(position + expected.count)].elementsEqual(expected) else {
            throw error("expected \(literal)")
        }
        position += expected.count
    }

    /// Skips one value of any type (recursing once per level: the document's
    /// depth was checked when the scanner was made).
    mutating func skipValue() throws(JSONError) {
        switch peek() {
        case UInt8(ascii: "{"): try readObject { (scanner: inout JSONScanner, _: String) throws(JSONError) in try scanner.skipValue() }
        case UInt8(ascii: "["): try readArray { (scanner: inout JSONScanner) throws(JSONError) in try scanner.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): try readLiteral("null")
        case nil: throw error("expected a value but the input ended")
        default: _ = try readNumberToken()
        }
    }

    // MARK: - Strings

    mutating func readString() throws(JSONError) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: bytes[start..<position], as: UTF8.self)
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            position += 1
        }
        var out = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                              bytes[position + 1] == UInt8(ascii: "u") else { throw error("unpaired surrogate in string") }
                        position += 2
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired surrogate in string")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                out.append(byte)
            }
        }
        throw error("string is not closed")
    }

    private mutating func skipString() throws(JSONError) {
        try expect(UInt8(ascii: "\""))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\\") { position += 1; continue }
            if byte == UInt8(ascii: "\"") { return }
        }
        throw error("string is not closed")
    }

    private mutating func readHex4() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: - Numbers

    /// The byte range of the next number token, validated against the JSON grammar.
    mutating func readNumberToken() throws(JSONError) -> Range<Int> {
        skipWhitespace()
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        guard position > integerStart else { throw error("expected a value", at: start) }
        if position - integerStart > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw error("number has a leading zero", at: start)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            guard position > fractionStart else { throw error("number has no digits after '.'", at: start) }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            guard position > exponentStart else { throw error("number has no exponent digits", at: start) }
        }
        return start..<position
    }

    mutating func readDouble() throws(JSONError) -> Double {
        let token = try readNumberToken()
        guard let value = DecimalParsing.double(bytes, token) else { throw error("number out of range", at: token.lowerBound) }
        return value
    }

    /// An integer written without fraction or exponent (OSM ids, versions).
    mutating func readInt64() throws(JSONError) -> Int64 {
        let token = try readNumberToken()
        guard let value = DecimalParsing.int64(bytes, token) else {
            throw error("expected an integer", at: token.lowerBound)
        }
        return value
    }

    mutating func atEnd() -> Bool {
        skipWhitespace()
        return position >= bytes.count
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(message: message, offset: offset ?? position)
    }
}

/// A JSON syntax error with the byte offset where it was noticed.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}
