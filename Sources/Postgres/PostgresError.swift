/// An error reported by PostgreSQL or by libpq.
///
/// Server errors carry every diagnostic field the server sent. Connection
/// problems use the SQLSTATE class 08 codes, so one type and one `code`
/// property serve every failure a query can have.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    public var code: SQLState
    public var message: String
    public var detail: String?
    public var hint: String?
    public var constraint: String?
    public var schema: String?
    public var table: String?
    public var column: String?
    public var dataType: String?
    /// `ERROR`, `FATAL` or `PANIC` (never localized).
    public var severity: String?
    /// 1-based character position in the query where the error was found.
    public var position: Int?
    /// The call stack of PL/pgSQL functions and SQL statements involved.
    public var context: String?
    /// The statement that failed, when it is useful to show it.
    public var query: String?

    public init(
        code: SQLState, message: String, detail: String? = nil, hint: String? = nil,
        constraint: String? = nil, schema: String? = nil, table: String? = nil,
        column: String? = nil, dataType: String? = nil, severity: String? = nil,
        position: Int? = nil, context: String? = nil, query: String? = nil
    ) {
        self.code = code
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.schema = schema
        self.table = table
        self.column = column
        self.dataType = dataType
        self.severity = severity
        self.position = position
        self.context = context
        self.query = query
    }

    /// True when the connection itself failed; the statement may or may not have run.
    public var isConnectionFailure: Bool { code.errorClass == "08" || code == .adminShutdown }

    /// True when the server cannot be used right now: the connection failed, or the server is
    /// shutting down or not yet accepting connections (a restart's or a failover's moments).
    /// Nothing of the failed transaction was kept; trying again shortly may succeed.
    public var isServerUnavailable: Bool { isConnectionFailure || ["57P01", "57P02", "57P03"].contains(code.rawValue) }

    public var description: String {
        var text = message
        if let detail { text += "\nDETAIL: \(detail)" }
        if let hint { text += "\nHINT: \(hint)" }
        text += " (SQLSTATE \(code))"
        return text
    }

    static func connection(_ message: String, hint: String? = nil) -> PostgresError {
        PostgresError(code: .connectionFailure, message: message, hint: hint, severity: "FATAL")
    }

    static func client(_ message: String, code: SQLState = .invalidParameterValue) -> PostgresError {
        PostgresError(code: code, message: message, severity: "ERROR")
    }
}
