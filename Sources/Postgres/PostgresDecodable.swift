import Foundation

/// One value of a result row, in the server's text format.
///
/// `bytes` points into the result and is valid only while a decoder runs.
public struct PostgresCell {
    /// The text of the value, or nil for SQL NULL.
    public let bytes: UnsafeRawBufferPointer?
    public let type: PostgresDataType
    /// The column's name, for error messages.
    public let column: String

    public init(bytes: UnsafeRawBufferPointer?, type: PostgresDataType, column: String) {
        self.bytes = bytes
        self.type = type
        self.column = column
    }

    public var isNull: Bool { bytes == nil }

    /// The value's text; throws for NULL, which only an Optional may receive.
    public func text<T>(for swiftType: T.Type) throws(PostgresDecodingError) -> String {
        String(decoding: try nonNull(swiftType), as: UTF8.self)
    }

    public func nonNull<T>(_ swiftType: T.Type) throws(PostgresDecodingError) -> UnsafeRawBufferPointer {
        guard let bytes else {
            throw PostgresDecodingError(column: column, type: type, swiftType: "\(T.self)", value: nil,
                                        reason: "the value is NULL; decode an Optional to accept NULL")
        }
        return bytes
    }

    func failure<T>(_ swiftType: T.Type, _ reason: String) -> PostgresDecodingError {
        PostgresDecodingError(column: column, type: type, swiftType: "\(T.self)",
                              value: bytes.map { String(decoding: $0.prefix(80), as: UTF8.self) }, reason: reason)
    }

    /// Runs `body` with a cell holding `text`; used for array elements and JSON fields.
    static func withText<R>(_ text: String?, type: PostgresDataType, column: String,
                            _ body: (PostgresCell) throws -> R) rethrows -> R {
        guard var text else { return try body(PostgresCell(bytes: nil, type: type, column: column)) }
        return try text.withUTF8 { utf8 in
            try body(PostgresCell(bytes: UnsafeRawBufferPointer(utf8), type: type, column: column))
        }
    }
}

/// A value that can't be turned into the Swift type asked for.
public struct PostgresDecodingError: Error, Sendable, CustomStringConvertible {
    public var column: String
    public var type: PostgresDataType
    public var swiftType: String
    public var value: String?
    public var reason: String

    public var description: String {
        var text = "cannot decode column \"\(column)\" (\(type)) as \(swiftType): \(reason)"
        if let value { text += " (value: \(value))" }
        return text
    }
}

/// A Swift type that can be read from a result value.
public protocol PostgresDecodable {
    init(postgresCell cell: PostgresCell) throws
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        self = cell.isNull ? nil : try Wrapped(postgresCell: cell)
    }
}

extension String: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        self = try cell.text(for: String.self)
    }
}

extension Bool: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        let bytes = try cell.nonNull(Bool.self)
        switch bytes.count == 1 ? bytes[0] : 0 {
        case UInt8(ascii: "t"): self = true
        case UInt8(ascii: "f"): self = false
        default:
            switch String(decoding: bytes, as: UTF8.self) {
            case "true": self = true
            case "false": self = false
            default: throw cell.failure(Bool.self, "expected t or f")
            }
        }
    }
}

/// Integers parse straight from the bytes: no intermediate String per value.
private func decodeInteger<T: FixedWidthInteger>(_ cell: PostgresCell, as type: T.Type) throws -> T {
    let bytes = try cell.nonNull(T.self)
    var index = 0
    var negative = false
    if bytes.count > 0, bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
        negative = bytes[0] == UInt8(ascii: "-")
        index = 1
    }
    guard index < bytes.count else { throw cell.failure(T.self, "expected an integer") }
    var value: T = 0
    while index < bytes.count {
        let digit = bytes[index] &- 48
        guard digit < 10 else { throw cell.failure(T.self, "expected an integer") }
        let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = negative ? shifted.subtractingReportingOverflow(T(digit))
                                  : shifted.addingReportingOverflow(T(digit))
        guard !o1, !o2 else { throw cell.failure(T.self, "out of range for \(T.self)") }
        value = next
        index += 1
    }
    return value
}

extension Int: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws { self = try decodeInteger(cell, as: Int.self) }
}

extension Int16: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws { self = try decodeInteger(cell, as: Int16.self) }
}

extension Int32: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws { self = try decodeInteger(cell, as: Int32.self) }
}

extension Int64: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws { self = try decodeInteger(cell, as: Int64.self) }
}

extension Double: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        let text = try cell.text(for: Double.self)
        guard let value = Double(text) else { throw cell.failure(Double.self, "expected a number") }
        self = value
    }
}

extension Float: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        let text = try cell.text(for: Float.self)
        guard let value = Float(text) else { throw cell.failure(Float.self, "expected a number") }
        self = value
    }
}

extension UUID: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        let text = try cell.text(for: UUID.self)
        guard let value = UUID(uuidString: text) else { throw cell.failure(UUID.self, "expected a UUID") }
        self = value
    }
}

extension Date: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        let text = try cell.text(for: Date.self)
        guard let value = PostgresTimestamp.parse(text) else {
            throw cell.failure(Date.self, "expected a timestamp, timestamptz or date")
        }
        self = value
    }
}

extension Data: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        let bytes = try cell.nonNull(Data.self)
        guard let decoded = PostgresBytea.decodeHex(bytes) else {
            throw cell.failure(Data.self, "expected bytea in hex format (\\x…)")
        }
        self = Data(decoded)
    }
}

extension Array: PostgresDecodable where Element: PostgresDecodable {
    public init(postgresCell cell: PostgresCell) throws {
        let text = try cell.text(for: [Element].self)
        let elements: [PostgresArrayLiteral.Element]
        do {
            elements = try PostgresArrayLiteral.parse(text)
        } catch {
            throw cell.failure([Element].self, "not an array literal: \(error.reason)")
        }
        let elementType = cell.type.elementType
        self = try elements.map { element in
            let text: String? = if case .value(let value) = element { value } else { nil }
            return try PostgresCell.withText(text, type: elementType, column: cell.column) { try Element(postgresCell: $0) }
        }
    }
}
