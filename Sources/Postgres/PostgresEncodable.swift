import Foundation

/// One parameter as it goes to the server.
public enum PostgresValue: Sendable, Equatable {
    case null
    /// PostgreSQL's text input format for `type`.
    case text(String, type: PostgresDataType = .unspecified)
    /// Raw bytes, sent in binary format as `bytea`.
    case bytes([UInt8])

    /// The value as one element of an array literal (`{…}`).
    var arrayElementLiteral: String {
        switch self {
        case .null: return "NULL"
        case .text(let text, _): return PostgresArrayLiteral.quote(text)
        case .bytes(let bytes): return PostgresArrayLiteral.quote(PostgresBytea.hexLiteral(bytes))
        }
    }

    /// The value as one field of `COPY … FROM STDIN` in text format.
    var copyField: String {
        switch self {
        case .null: return "\\N"
        case .text(let text, _): return PostgresCopy.escape(text)
        case .bytes(let bytes): return PostgresCopy.escape(PostgresBytea.hexLiteral(bytes))
        }
    }
}

/// A Swift value that can be sent as a query parameter.
public protocol PostgresEncodable: Sendable {
    /// The type named for parameters of this Swift type; `.unspecified` lets the server infer it.
    static var postgresDataType: PostgresDataType { get }
    var postgresValue: PostgresValue { get }
    /// How the value appears inside an array literal. Nested arrays override it to stay unquoted.
    var postgresArrayElement: String { get }
}

extension PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .unspecified }
    public var postgresArrayElement: String { postgresValue.arrayElementLiteral }
}

/// SQL NULL, for a parameter whose Swift type does not matter.
public struct PostgresNull: PostgresEncodable {
    public init() {}
    public var postgresValue: PostgresValue { .null }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { Wrapped.postgresDataType }
    public var postgresValue: PostgresValue { self?.postgresValue ?? .null }
    public var postgresArrayElement: String { self?.postgresArrayElement ?? "NULL" }
}

extension Bool: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(self ? "t" : "f") }
}

extension String: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(self) }
}

extension Substring: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int16: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int32: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int64: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Double: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(PostgresFloat.text(self)) }
}

extension Float: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(PostgresFloat.text(Double(self))) }
}

extension UUID: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(uuidString.lowercased()) }
}

extension Date: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(PostgresTimestamp.format(self)) }
}

extension Data: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .bytea }
    public var postgresValue: PostgresValue { .bytes([UInt8](self)) }
}

extension Array: PostgresEncodable where Element: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { Element.postgresDataType.arrayType }
    public var postgresValue: PostgresValue { .text(arrayLiteral, type: Self.postgresDataType) }
    public var postgresArrayElement: String { arrayLiteral }

    private var arrayLiteral: String {
        "{" + map(\.postgresArrayElement).joined(separator: ",") + "}"
    }
}

enum PostgresFloat {
    static func text(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }
}
