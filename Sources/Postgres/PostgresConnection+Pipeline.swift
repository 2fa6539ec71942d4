import CLibPQ
import Digest
import Foundation

extension PostgresConnection {
    /// Sends every statement at once and reads the results as they come (libpq
    /// pipeline mode): one network round trip for the whole batch.
    ///
    /// The batch ends with one sync, so outside an explicit transaction it runs as
    /// one implicit transaction: if any statement fails, none of them takes effect,
    /// and the first failure is thrown.
    ///
    /// With `prepared`, each statement is prepared on the server the first time this
    /// connection sends its text (with those parameter types) and executed by name
    /// afterwards, so the server parses and plans it once: for statements sent
    /// again and again, like an RPC on a hot path.
    public func pipeline(_ queries: [PostgresQuery], prepared: Bool = false) async throws -> [PostgresRows] {
        let handle = try liveHandle()
        guard !queries.isEmpty else { return [] }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError.client("cannot enter pipeline mode: \(Self.errorMessage(handle))")
        }
        // Non-blocking, so a large batch can't deadlock with the server's replies filling the socket.
        PQsetnonblocking(handle, 1)
        defer {
            PQsetnonblocking(handle, 0)
            PQexitPipelineMode(handle)
        }
        // What the server will answer, in order: a preparation's result comes before its statement's.
        var expected: [PipelineStep] = []
        for (index, query) in queries.enumerated() {
            let sent = try query.withLibpqParameters { count, types, values, lengths, formats -> Int32 in
                guard prepared else {
                    expected.append(.statement(index))
                    return PQsendQueryParams(handle, query.sql, count, types, values, lengths, formats, 0)
                }
                let key = query.sql + "\u{0}" + (0..<Int(count)).map { String(types![$0]) }.joined(separator: ",")
                var name = preparedStatements[key]
                if name == nil {
                    name = expected.lazy.compactMap { step -> String? in
                        if case .preparation(key, let name) = step { return name }
                        return nil
                    }.first
                }
                if name == nil {
                    // Named after what it is, so preparing it twice can only ever mean the same statement.
                    let newName = "summit_" + SHA256.hex(key).prefix(24)
                    guard PQsendPrepare(handle, newName, query.sql, count, types) == 1 else { return 0 }
                    expected.append(.preparation(key: key, name: newName))
                    name = newName
                }
                expected.append(.statement(index))
                return PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0)
            }
            guard sent == 1 else { throw PostgresError.connection("pipeline send failed: \(Self.errorMessage(handle))") }
        }
        guard PQpipelineSync(handle) == 1 else {
            throw PostgresError.connection("pipeline sync failed: \(Self.errorMessage(handle))")
        }

        var results: [PostgresRows] = []
        var firstError: (any Error)?
        while true {
            let flushed = PQflush(handle)
            guard flushed >= 0 else { throw PostgresError.connection("pipeline flush failed: \(Self.errorMessage(handle))") }
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN) | (flushed == 1 ? Int16(POLLOUT) : 0), revents: 0)
            guard poll(&descriptor, 1, -1) >= 0 || errno == EINTR else {
                throw PostgresError.connection("pipeline poll failed: \(String(cString: strerror(errno)))")
            }
            if descriptor.revents != 0, PQconsumeInput(handle) == 0 {
                throw PostgresError.connection("lost the connection during a pipeline: \(Self.errorMessage(handle))")
            }
            while PQisBusy(handle) == 0 {
                // NULL marks the end of one statement's results; the next call moves to the next statement.
                guard let result = PQgetResult(handle) else { continue }
                switch PQresultStatus(result) {
                case PGRES_PIPELINE_SYNC:
                    PQclear(result)
                    if let firstError { throw firstError }
                    return results
                default:
                    let step = expected.isEmpty ? nil : expected.removeFirst()
                    if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                        PQclear(result)
                        continue
                    }
                    switch step {
                    case .preparation(let key, let name):
                        // Known to the server once it said so. "Already exists" can only be this very
                        // statement (the name is its digest): remember it, and this once, fail.
                        let status = PQresultStatus(result)
                        let code = PQresultErrorField(result, Int32(Character("C").asciiValue!)).map { String(cString: $0) }
                        if status == PGRES_COMMAND_OK || code == "42P05" { preparedStatements[key] = name }
                        if status == PGRES_COMMAND_OK {
                            PQclear(result)
                        } else {
                            do { _ = try Self.check(result, on: handle, sql: queries.first?.sql) } catch { firstError = firstError ?? error }
                        }
                    case .statement(let index):
                        do {
                            results.append(try Self.check(result, on: handle, sql: queries[index].sql))
                        } catch {
                            firstError = firstError ?? error
                        }
                    case nil:
                        PQclear(result)
                    }
                }
            }
        }
    }
}

/// One result a pipeline waits for.
private enum PipelineStep {
    /// `PQsendPrepare` of the statement `name` for the cache entry `key`.
    case preparation(key: String, name: String)
    /// The statement at this index of the batch.
    case statement(Int)
}
