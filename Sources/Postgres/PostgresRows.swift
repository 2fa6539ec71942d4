import CLibPQ

/// Owns one `PGresult`; libpq results are immutable, so reading them from any thread is safe.
final class ResultStorage: @unchecked Sendable {
    let result: OpaquePointer
    let columns: [PostgresColumn]
    let rowCount: Int
    /// Column name → first index, for decoding by name.
    let indexByName: [String: Int]

    init(_ result: OpaquePointer) {
        self.result = result
        rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        var columns: [PostgresColumn] = []
        var index: [String: Int] = [:]
        for i in 0..<columnCount {
            let name = PQfname(result, Int32(i)).map { String(cString: $0) } ?? "?column?"
            columns.append(PostgresColumn(name: name, type: PostgresDataType(PQftype(result, Int32(i)))))
            if index[name] == nil { index[name] = i }
        }
        self.columns = columns
        self.indexByName = index
    }

    deinit { PQclear(result) }

    func withCell<R>(row: Int, column: Int, _ body: (PostgresCell) throws -> R) rethrows -> R {
        let info = columns[column]
        if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
            return try body(PostgresCell(bytes: nil, type: info.type, column: info.name))
        }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        let pointer = PQgetvalue(result, Int32(row), Int32(column))
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        return try body(PostgresCell(bytes: bytes, type: info.type, column: info.name))
    }
}

public struct PostgresColumn: Sendable, Equatable {
    public let name: String
    public let type: PostgresDataType
}

/// The outcome of one statement: its rows (possibly none) and its command tag.
public struct PostgresRows: Sendable, RandomAccessCollection {
    let storage: ResultStorage
    /// `INSERT 0 3`, `SELECT 2`, `UPDATE 1`, …
    public let commandTag: String
    /// Rows inserted, updated, deleted, copied or selected, when the command reports it.
    public let rowsAffected: Int

    init(_ result: OpaquePointer) {
        storage = ResultStorage(result)
        commandTag = String(cString: PQcmdStatus(result))
        rowsAffected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    public var columns: [PostgresColumn] { storage.columns }
    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.rowCount }

    public subscript(position: Int) -> PostgresRow {
        PostgresRow(storage: storage, index: position)
    }

    /// Every row decoded as `T`: a single-column value or a `Decodable` type whose
    /// properties are columns (by name, or by their snake_case form).
    public func decode<T: Decodable>(_ type: T.Type) throws -> [T] {
        try map { try $0.decode(T.self) }
    }

    /// The first row as `T`, or nil when there is none.
    public func first<T: Decodable>(as type: T.Type) throws -> T? {
        try first.map { try $0.decode(T.self) }
    }

    /// The only row's only value. Throws when the query returned no row.
    public func scalar<T: PostgresDecodable>(_ type: T.Type = T.self) throws -> T {
        guard let row = first else {
            throw PostgresError.client("expected one row, got none", code: .noDataFound)
        }
        return try row.decode(T.self, at: 0)
    }
}

/// One row of a result.
public struct PostgresRow: Sendable {
    let storage: ResultStorage
    let index: Int

    public var columns: [PostgresColumn] { storage.columns }

    public func isNull(at column: Int) -> Bool {
        PQgetisnull(storage.result, Int32(index), Int32(column)) == 1
    }

    public func decode<T: PostgresDecodable>(_ type: T.Type, at column: Int) throws -> T {
        guard column >= 0, column < storage.columns.count else {
            throw PostgresError.client("column index \(column) is out of range (\(storage.columns.count) columns)",
                                       code: .undefinedColumn)
        }
        return try storage.withCell(row: index, column: column) { try T(postgresCell: $0) }
    }

    public func decode<T: PostgresDecodable>(_ type: T.Type, column name: String) throws -> T {
        try decode(T.self, at: try columnIndex(name))
    }

    public subscript<T: PostgresDecodable>(_ name: String, as type: T.Type) -> T {
        get throws { try decode(T.self, column: name) }
    }

    func columnIndex(_ name: String) throws -> Int {
        guard let index = storage.indexByName[name] else {
            let names = storage.columns.map(\.name).joined(separator: ", ")
            throw PostgresError.client("no column \"\(name)\" in the result (columns: \(names))", code: .undefinedColumn)
        }
        return index
    }
}
