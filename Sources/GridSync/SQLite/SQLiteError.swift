/// SQLite refused a statement: its result code, message and the statement.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (in: \($0.prefix(200)))" } ?? "")
    }
}
