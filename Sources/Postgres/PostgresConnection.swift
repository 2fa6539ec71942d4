import CLibPQ
import DedicatedThread
import Foundation

/// One connection to PostgreSQL.
///
/// An actor whose jobs run on a thread of its own: libpq blocks, and blocking
/// there keeps Swift's cooperative pool free. The connection serves one logical
/// caller at a time: a transaction is only yours if no one else shares the
/// connection, so concurrent work takes connections from a `PostgresPool`.
public actor PostgresConnection {
    private let executor: ThreadExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public nonisolated let configuration: PostgresConfiguration
    var handle: OpaquePointer?
    private let canceller = Canceller()
    var transactionDepth = 0
    /// Server-side prepared statements of this connection, by SQL text and parameter types.
    var preparedStatements: [String: String] = [:]

    private init(configuration: PostgresConfiguration) {
        self.configuration = configuration
        executor = ThreadExecutor(name: "postgres")
    }

    isolated deinit {
        if let handle { PQfinish(handle) }
        canceller.replace(with: nil)
        executor.shutdown()
    }

    /// Opens a connection; throws a `PostgresError` naming the server when it can't.
    public static func connect(
        _ configuration: PostgresConfiguration, applicationName: String = "summit"
    ) async throws -> PostgresConnection {
        let connection = PostgresConnection(configuration: configuration)
        try await connection.open(applicationName: applicationName)
        return connection
    }

    private func open(applicationName: String) throws {
        let keywords = configuration.connectionKeywords(applicationName: applicationName)
        let handle = withCStrings(keywords.map(\.0)) { names in
            withCStrings(keywords.map(\.1)) { values in
                PQconnectdbParams(names, values, 0)
            }
        }
        guard let handle else { throw PostgresError.connection("libpq could not allocate a connection") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.errorMessage(handle)
            PQfinish(handle)
            throw PostgresError.connection(
                "could not connect to PostgreSQL at \(configuration.target): \(reason)",
                hint: "Check that the server is running and that the connection settings (DATABASE_URL) point at it.")
        }
        PQsetNoticeProcessor(handle, { _, message in
            // Only warnings reach us (client_min_messages=warning); they matter, so show them.
            if let message { FileHandle.standardError.write(Data(("postgres: " + String(cString: message)).utf8)) }
        }, nil)
        self.handle = handle
        canceller.replace(with: PQgetCancel(handle))
    }

    /// Closes the connection. Later calls fail with `connectionDoesNotExist`.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        canceller.replace(with: nil)
    }

    /// False once the server has gone away or `close()` was called.
    public var isOpen: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// True when no transaction is open or failed on this connection.
    public var isIdle: Bool {
        guard let handle else { return false }
        return PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// The server process serving this connection: what `pg_notify` reports as the sender.
    public var backendPID: Int32 {
        guard let handle else { return 0 }
        return PQbackendPID(handle)
    }

    /// Runs one parameterized statement and returns its rows.
    ///
    /// Cancelling the task cancels the statement on the server.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        // The operation calls back into the actor, so libpq blocks this connection's
        // thread; a closure that doesn't would run it on the cooperative pool.
        try await withTaskCancellationHandler {
            try await self.runQuery(query)
        } onCancel: { [canceller] in
            canceller.cancel()
        }
    }

    private func runQuery(_ query: PostgresQuery) throws -> PostgresRows {
        try Self.run(query, on: try liveHandle())
    }

    private func runSimpleQuery(_ sql: String) throws -> PostgresRows {
        let handle = try liveHandle()
        return try Self.check(PQexec(handle, sql), on: handle, sql: sql)
    }

    /// Runs SQL text with no parameters, possibly several statements, through the
    /// simple query protocol; returns the last statement's rows. For migration
    /// files and fixed commands only: values belong in `query(_:)`.
    @discardableResult
    public func simpleQuery(_ sql: String) async throws -> PostgresRows {
        try await withTaskCancellationHandler {
            try await self.runSimpleQuery(sql)
        } onCancel: { [canceller] in
            canceller.cancel()
        }
    }

    func liveHandle() throws -> OpaquePointer {
        guard let handle else {
            throw PostgresError(code: .connectionDoesNotExist,
                                message: "the connection to \(configuration.target) is closed")
        }
        return handle
    }

    static func run(_ query: PostgresQuery, on handle: OpaquePointer) throws -> PostgresRows {
        try query.withLibpqParameters { count, types, values, lengths, formats in
            try check(PQexecParams(handle, query.sql, count, types, values, lengths, formats, 0),
                  on: handle, sql: query.sql)
        }
    }

    /// Turns a result into rows, or its error into a `PostgresError`; frees failed results.
    static func check(_ result: OpaquePointer?, on handle: OpaquePointer, sql: String?) throws -> PostgresRows {
        guard let result else {
            throw PostgresError.connection("lost the connection: \(errorMessage(handle))")
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresRows(result)
        default:
            let error = PostgresError(result: result, handle: handle, sql: sql)
            PQclear(result)
            throw error
        }
    }

    static func errorMessage(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle))
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}

/// Holds libpq's cancel object, which another thread may use while a query runs.
final class Canceller: @unchecked Sendable {
    private let lock = NSLock()
    private var pointer: OpaquePointer?

    func replace(with new: OpaquePointer?) {
        lock.withLock {
            if let pointer { PQfreeCancel(pointer) }
            pointer = new
        }
    }

    func cancel() {
        lock.withLock {
            guard let pointer else { return }
            var buffer = [CChar](repeating: 0, count: 256)
            _ = PQcancel(pointer, &buffer, Int32(buffer.count))
        }
    }
}

extension PostgresError {
    init(result: OpaquePointer, handle: OpaquePointer, sql: String?) {
        func field(_ code: Character) -> String? {
            guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        guard let state = field("C") else {
            // No SQLSTATE: libpq itself failed, nearly always because the connection broke.
            self = .connection("lost the connection: \(PostgresConnection.errorMessage(handle))")
            return
        }
        self.init(
            code: SQLState(state),
            message: field("M") ?? PostgresConnection.errorMessage(handle),
            detail: field("D"), hint: field("H"), constraint: field("n"), schema: field("s"),
            table: field("t"), column: field("c"), dataType: field("d"), severity: field("V"),
            position: field("P").flatMap { Int($0) }, context: field("W"), query: sql)
    }
}

/// Calls `body` with a C array of C strings that live for the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) rethrows -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return try pointers.withUnsafeBufferPointer { buffer in
        try buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
            try body($0)
        }
    }
}

extension PostgresQuery {
    /// Lays the parameters out as libpq wants them, for the length of `body`.
    func withLibpqParameters<R>(
        _ body: (Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?,
                 UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> R
    ) throws -> R {
        if binds.isEmpty { return try body(0, nil, nil, nil, nil) }
        var types: [Oid] = []
        var values: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for value in values { free(value) } }
        for (position, bind) in binds.enumerated() {
            switch bind {
            case .null:
                types.append(0); values.append(nil); lengths.append(0); formats.append(0)
            case .text(let text, let type):
                // Text parameters travel as C strings: a NUL would silently cut the value short.
                if text.utf8.contains(0) {
                    throw PostgresError.client(
                        "parameter $\(position + 1) contains a NUL character, which PostgreSQL text cannot hold",
                        code: .characterNotInRepertoire)
                }
                types.append(type.oid); values.append(strdup(text)); lengths.append(0); formats.append(0)
            case .bytes(let bytes):
                let pointer = malloc(max(bytes.count, 1))!.assumingMemoryBound(to: CChar.self)
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(pointer, base, raw.count) }
                }
                types.append(PostgresDataType.bytea.oid); values.append(pointer)
                lengths.append(Int32(bytes.count)); formats.append(1)
            }
        }
        return try values.withUnsafeBufferPointer { valueBuffer in
            try valueBuffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: valueBuffer.count) { valuePointer in
                try body(Int32(binds.count), types, valuePointer, lengths, formats)
            }
        }
    }
}

extension PostgresConnection {
    /// Connects, runs `body`, and closes the connection whatever happens.
    @discardableResult
    public static func withConnection<T>(
        _ configuration: PostgresConfiguration, applicationName: String = "summit",
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await connect(configuration, applicationName: applicationName)
        do {
            let value = try await body(connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }
}
