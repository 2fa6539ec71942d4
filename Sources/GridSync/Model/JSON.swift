import Foundation

/// A JSON document as the sync RPCs send and answer it.
///
/// Integers are kept apart from other numbers: PostgreSQL reads `7.0` as no
/// valid `smallint`, so a board's size must go back exactly as `7`.
/// Lookups never throw; a missing key or another kind reads as `.null`.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public subscript(key: String) -> JSON {
        if case .object(let fields) = self { return fields[key] ?? .null }
        return .null
    }

    public subscript(index: Int) -> JSON {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return .null
    }

    public var isNull: Bool { self == .null }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var int: Int? {
        switch self {
        case .integer(let value): Int(value)
        case .number(let value) where value.rounded() == value: Int(value)
        default: nil
        }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var object: [String: JSON]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    public var uuid: UUID? { string.flatMap(UUID.init(uuidString:)) }

    public var timestamp: Timestamp? { string.flatMap { Timestamp(parsing: $0) } }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
