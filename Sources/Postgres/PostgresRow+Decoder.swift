import Foundation

extension PostgresRow {
    /// The row as a `Decodable` value.
    ///
    /// A type that is itself `PostgresDecodable` reads the first column. Otherwise each
    /// property reads the column of the same name, or of its snake_case form
    /// (`createdAt` → `created_at`); a property of a non-Postgres type reads a
    /// `json`/`jsonb` column through `JSONDecoder`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let direct = T.self as? any PostgresDecodable.Type {
            return try storage.withCell(row: index, column: 0) { try direct.init(postgresCell: $0) } as! T
        }
        return try T(from: RowDecoder(row: self))
    }

    /// Decodes column `column` as any `Decodable`: Postgres types directly, others from JSON.
    func decodeValue<T: Decodable>(_ type: T.Type, at column: Int) throws -> T {
        try storage.withCell(row: index, column: column) { cell in
            if let direct = T.self as? any PostgresDecodable.Type {
                return try direct.init(postgresCell: cell) as! T
            }
            guard cell.type.isJSON || cell.type == .text || cell.type == .unknown else {
                throw cell.failure(T.self, "only json and jsonb columns decode into non-Postgres types")
            }
            let bytes = try cell.nonNull(T.self)
            do {
                return try PostgresJSONCoding.decode(T.self, from: bytes)
            } catch {
                throw cell.failure(T.self, "JSON does not match: \(error)")
            }
        }
    }

    /// The column for a property: its exact name, else its snake_case form.
    func columnIndex(forKey key: String) -> Int? {
        storage.indexByName[key] ?? storage.indexByName[Self.snakeCase(key)]
    }

    static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                if !out.isEmpty { out.append("_") }
                out.append(contentsOf: character.lowercased())
            } else {
                out.append(character)
            }
        }
        return out
    }
}

private struct RowDecoder: Decoder {
    let row: PostgresRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowKeyedContainer<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        RowUnkeyedContainer(row: row)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RowSingleValueContainer(row: row)
    }
}

private struct RowKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: PostgresRow
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { row.columns.compactMap { Key(stringValue: $0.name) } }

    func contains(_ key: Key) -> Bool { row.columnIndex(forKey: key.stringValue) != nil }

    private func index(_ key: Key) throws -> Int {
        guard let index = row.columnIndex(forKey: key.stringValue) else {
            let names = row.columns.map(\.name).joined(separator: ", ")
            throw DecodingError.keyNotFound(key, .init(
                codingPath: [key],
                debugDescription: "no column \"\(key.stringValue)\" or \"\(PostgresRow.snakeCase(key.stringValue))\" in the result (columns: \(names))"))
        }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool { row.isNull(at: try index(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try row.decodeValue(T.self, at: try index(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try row.decodeValue(type, at: try index(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try row.decodeValue(type, at: try index(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try row.decodeValue(type, at: try index(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try row.decodeValue(type, at: try index(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try row.decodeValue(type, at: try index(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try row.decodeValue(type, at: try index(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try row.decodeValue(type, at: try index(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try row.decodeValue(type, at: try index(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(type, .init(codingPath: [key],
            debugDescription: "a row has no nested containers; give the property a Decodable type read from a json column"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key],
            debugDescription: "a row has no nested containers; decode an array column as [T]"))
    }

    func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(row: row) }
}

/// Columns in order, for tuples-like types that decode positionally.
private struct RowUnkeyedContainer: UnkeyedDecodingContainer {
    let row: PostgresRow
    var codingPath: [any CodingKey] { [] }
    var count: Int? { row.columns.count }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= row.columns.count }

    init(row: PostgresRow) { self.row = row }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw endError() }
        if row.isNull(at: currentIndex) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw endError() }
        defer { currentIndex += 1 }
        return try row.decodeValue(T.self, at: currentIndex)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "a row has no nested containers"))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "a row has no nested containers"))
    }

    mutating func superDecoder() throws -> any Decoder { RowDecoder(row: row) }

    private func endError() -> DecodingError {
        .valueNotFound(Any.self, .init(codingPath: [], debugDescription: "the row has only \(row.columns.count) columns"))
    }
}

private struct RowSingleValueContainer: SingleValueDecodingContainer {
    let row: PostgresRow
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { row.isNull(at: 0) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try row.decodeValue(T.self, at: 0)
    }
}
