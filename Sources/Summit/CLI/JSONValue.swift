import Foundation
import JSONDepth

/// A JSON document as the RPCs return it, for commands that print parts of it.
///
/// Lookups never throw: a missing key or a value of another kind reads as
/// `.null`, so formatting code stays short and a changed RPC answer shows up
/// as an empty field rather than a crash.
public enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Nesting deeper than `JSONDepth.limit` is refused as `JSONTooDeep`, which
    /// says so; JSONDecoder alone would call it "not valid JSON".
    public init(parsing text: String) throws {
        try JSONDepth.check(text.utf8)
        self = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    public subscript(key: String) -> JSONValue {
        if case .object(let fields) = self { return fields[key] ?? .null }
        return .null
    }

    public subscript(index: Int) -> JSONValue {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return .null
    }

    public var isNull: Bool { self == .null }

    public var string: String? {
        switch self {
        case .string(let text): text
        case .number(let number): number == number.rounded() ? String(Int(number)) : String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    public var int: Int? {
        switch self {
        case .number(let number): Int(exactly: number.rounded())
        case .string(let text): Int(text)
        default: nil
        }
    }

    public var double: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    public var uuid: UUID? { string.flatMap(UUID.init(uuidString:)) }

    public var array: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }
}
