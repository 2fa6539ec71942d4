/// A parsed JSON value that keeps object members in document order, so a
/// decoder can notice duplicate or unexpected keys.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Parses a complete JSON text; trailing content is an error.
    static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var scanner = try JSONScanner(bytes: bytes)
        let value = try parse(&scanner)
        guard scanner.atEnd() else { throw scanner.error("unexpected content after the JSON value") }
        return value
    }

    /// Recurses once per level; the scanner refused anything deeper than `JSONDepth.limit`.
    private static func parse(_ scanner: inout JSONScanner) throws(JSONError) -> JSONValue {
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            var members: [(String, JSONValue)] = []
            try scanner.readObject { (inner: inout JSONScanner, key: String) throws(JSONError) in
                members.append((key, try parse(&inner)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try scanner.readArray { (inner: inout JSONScanner) throws(JSONError) in
                elements.append(try parse(&inner))
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try scanner.readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try scanner.readBool())
        case UInt8(ascii: "n"):
            _ = try scanner.readNullIfPresent()
            return .null
        case nil:
            throw scanner.error("expected a value but the input ended")
        default:
            return .number(try scanner.readDouble())
        }
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}
