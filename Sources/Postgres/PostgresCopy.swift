import CLibPQ
import Foundation

enum PostgresCopy {
    /// Escapes one field of COPY's text format: backslash, tab, newline and carriage return.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5c || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension PostgresConnection {
    /// Loads rows with `COPY table (columns) FROM STDIN`, the fastest way in.
    ///
    /// All or nothing: a row of the wrong width aborts the COPY, and the server
    /// keeps none of the rows. Returns the number of rows copied.
    @discardableResult
    public func copy(
        into table: String, columns: [String], rows: some Sequence<[any PostgresEncodable]> & Sendable
    ) async throws -> Int {
        let handle = try liveHandle()
        let target = table.split(separator: ".").map { PostgresQuery.quoteIdentifier(String($0)) }.joined(separator: ".")
        let columnList = columns.map(PostgresQuery.quoteIdentifier).joined(separator: ", ")
        let sql = "COPY \(target) (\(columnList)) FROM STDIN"
        let start = PQexec(handle, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            _ = try Self.check(start, on: handle, sql: sql)
            throw PostgresError.client("\(sql) did not start a COPY")
        }
        PQclear(start)

        var buffer = [UInt8]()
        buffer.reserveCapacity(1 << 16)
        var abort: String?
        func flush() throws {
            guard !buffer.isEmpty else { return }
            let sent = buffer.withUnsafeBufferPointer { raw in
                raw.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            buffer.removeAll(keepingCapacity: true)
            if sent != 1 { throw PostgresError.connection("COPY into \(table) failed: \(Self.errorMessage(handle))") }
        }
        var rowNumber = 0
        for row in rows {
            rowNumber += 1
            guard row.count == columns.count else {
                abort = "row \(rowNumber) has \(row.count) values for \(columns.count) columns"
                break
            }
            for (index, value) in row.enumerated() {
                if index > 0 { buffer.append(0x09) }
                let field = value.postgresValue.copyField
                if field.utf8.contains(0) {
                    abort = "row \(rowNumber), column \(columns[index]) contains a NUL character"
                    break
                }
                buffer.append(contentsOf: field.utf8)
            }
            if abort != nil { break }
            buffer.append(0x0a)
            if buffer.count >= 1 << 16 { try flush() }
        }
        if abort == nil { try flush() } else { buffer.removeAll() }
        guard PQputCopyEnd(handle, abort) == 1 else {
            throw PostgresError.connection("COPY into \(table) failed: \(Self.errorMessage(handle))")
        }
        var copied = 0
        var failure: (any Error)?
        while let result = PQgetResult(handle) {
            do {
                copied = try Self.check(result, on: handle, sql: sql).rowsAffected
            } catch {
                failure = failure ?? error
            }
        }
        if let abort { throw PostgresError.client("COPY into \(table) aborted, nothing was written: \(abort)") }
        if let failure { throw failure }
        return copied
    }
}
