import CSQLite
import Foundation

/// A SQLite database file: statements with bound values, rows back, and
/// transactions that nest as savepoints.
///
/// One instance belongs to one owner at a time (it is not `Sendable`); the
/// library is opened fully serialized anyway, so the owner may hop threads
/// between calls, as an async function does.
public final class SQLiteDatabase {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    private var transactionDepth = 0
    public let path: String

    /// Opens (creating if needed) the database at `path`, in WAL mode.
    public init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(code: status, message: "cannot open \(path): \(message)", sql: nil)
        }
        self.handle = handle
        self.path = path
        sqlite3_busy_timeout(handle, 5_000)
        try execute("pragma journal_mode = wal; pragma synchronous = normal; pragma foreign_keys = off")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no values (schema, pragmas).
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: status, message: text, sql: sql)
        }
    }

    /// Runs one statement with `values` bound to its `?` parameters; returns the rows changed.
    @discardableResult
    public func run(_ sql: String, _ values: [any SQLiteBindable] = []) throws -> Int {
        _ = try rows(sql, values)
        return Int(sqlite3_changes(handle))
    }

    /// Runs one statement with `values` bound and returns every row.
    public func rows(_ sql: String, _ values: [any SQLiteBindable] = []) throws -> [SQLiteRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            try bind(value.sqliteValue, at: Int32(index + 1), in: statement, sql: sql)
        }
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [SQLiteRow] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error(status, sql: sql) }
            rows.append(SQLiteRow(columns: columns, values: (0..<count).map { column(at: $0, of: statement) }))
        }
        return rows
    }

    /// The first column of the first row, or `.null` when there is no row.
    public func scalar(_ sql: String, _ values: [any SQLiteBindable] = []) throws -> SQLiteValue {
        try rows(sql, values).first?[0] ?? .null
    }

    /// Runs `body` in a transaction (a savepoint when nested): committed when it
    /// returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "gridsync_\(depth)"
        try execute(depth == 0 ? "begin immediate" : "savepoint \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth = depth }
        do {
            let value = try body()
            try execute(depth == 0 ? "commit" : "release \(savepoint)")
            return value
        } catch {
            if depth == 0 {
                try? execute("rollback")
            } else {
                try? execute("rollback to \(savepoint); release \(savepoint)")
            }
            throw error
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql: sql) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteValue, at index: Int32, in statement: OpaquePointer, sql: String) throws {
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(statement, index)
        case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
        case .real(let value): status = sqlite3_bind_double(statement, index, value)
        case .text(let value): status = sqlite3_bind_text(statement, index, value, -1, Self.transient)
        case .blob(let bytes):
            status = bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), Self.transient)
            }
        }
        guard status == SQLITE_OK else { throw error(status, sql: sql) }
    }

    private func column(at index: Int32, of statement: OpaquePointer) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let base = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    private func error(_ status: Int32, sql: String) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
