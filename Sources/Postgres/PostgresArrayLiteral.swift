import Digest

/// PostgreSQL's array text format: `{1,2,NULL}`, `{"a b","c\"d"}`, `{{1,2},{3,4}}`.
enum PostgresArrayLiteral {
    /// One element of a literal: a quoted string, `NULL`, or a nested array kept as text.
    enum Element: Equatable {
        case null
        case value(String)
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for character in text.unicodeScalars {
            if character == "\"" || character == "\\" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(character)
        }
        out.unicodeScalars.append("\"")
        return out
    }

    /// The top-level elements of an array literal; nested arrays come back as their own literal text.
    static func parse(_ literal: some StringProtocol) throws(ArrayLiteralError) -> [Element] {
        var bytes = Array(literal.utf8)[...]
        // A non-default lower bound is written as a prefix: `[0:2]={…}`.
        if bytes.first == UInt8(ascii: "["), let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
            bytes = bytes[(equals + 1)...]
        }
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            throw ArrayLiteralError(reason: "an array literal starts with { and ends with }")
        }
        bytes = bytes.dropFirst().dropLast()
        var elements: [Element] = []
        if bytes.isEmpty { return elements }

        var index = bytes.startIndex
        while true {
            // Skip whitespace before an element.
            while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") { index += 1 }
            guard index < bytes.endIndex else { throw ArrayLiteralError(reason: "missing element") }
            let first = bytes[index]
            if first == UInt8(ascii: "\"") {
                var value: [UInt8] = []
                index += 1
                var closed = false
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                        guard index < bytes.endIndex else { break }
                        value.append(bytes[index])
                    } else if byte == UInt8(ascii: "\"") {
                        closed = true
                        index += 1
                        break
                    } else {
                        value.append(byte)
                    }
                    index += 1
                }
                guard closed else { throw ArrayLiteralError(reason: "unterminated quoted element") }
                elements.append(.value(String(decoding: value, as: UTF8.self)))
            } else if first == UInt8(ascii: "{") {
                let start = index
                var depth = 0
                var inQuotes = false
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    if inQuotes {
                        if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inQuotes = false }
                    } else if byte == UInt8(ascii: "\"") {
                        inQuotes = true
                    } else if byte == UInt8(ascii: "{") {
                        depth += 1
                    } else if byte == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 { index += 1; break }
                    }
                    index += 1
                }
                guard depth == 0 else { throw ArrayLiteralError(reason: "unbalanced braces") }
                elements.append(.value(String(decoding: bytes[start..<index], as: UTF8.self)))
            } else {
                let start = index
                var value: [UInt8] = []
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: ",") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        index += 1
                        if index < bytes.endIndex { value.append(bytes[index]) }
                    } else {
                        value.append(bytes[index])
                    }
                    index += 1
                }
                while let last = value.last, last == UInt8(ascii: " ") { value.removeLast() }
                let raw = String(decoding: value, as: UTF8.self)
                if raw.uppercased() == "NULL", !bytes[start..<index].contains(UInt8(ascii: "\\")) {
                    elements.append(.null)
                } else {
                    elements.append(.value(raw))
                }
            }
            while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") { index += 1 }
            if index == bytes.endIndex { return elements }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw ArrayLiteralError(reason: "expected , between elements")
            }
            index += 1
        }
    }
}

struct ArrayLiteralError: Error {
    var reason: String
}

enum PostgresBytea {
    /// `\x` followed by lowercase hex: bytea's text form.
    static func hexLiteral(_ bytes: [UInt8]) -> String {
        "\\x" + bytes.hexString
    }

    /// Decodes bytea's hex text form (`\x0aff`), the only form Summit's connections ask for.
    static func decodeHex(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"),
              text.count % 2 == 0
        else { return nil }
        var out = [UInt8]()
        out.reserveCapacity((text.count - 2) / 2)
        var index = 2
        while index < text.count {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
