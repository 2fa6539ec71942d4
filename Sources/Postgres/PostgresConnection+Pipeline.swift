import CLibPQ
import Foundation

extension PostgresConnection {
    /// Sends every statement at once and reads the results as they come (libpq
    /// pipeline mode): one network round trip for the whole batch.
    ///
    /// The batch ends with one sync, so outside an explicit transaction it runs as
    /// one implicit transaction: if any statement fails, none of them takes effect,
    /// and the first failure is thrown.
    public func pipeline(_ queries: [PostgresQuery]) async throws -> [PostgresRows] {
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
        for query in queries {
            let sent = try query.withLibpqParameters { count, types, values, lengths, formats in
                PQsendQueryParams(handle, query.sql, count, types, values, lengths, formats, 0)
            }
            guard sent == 1 else { throw PostgresError.connection("pipeline send failed: \(Self.errorMessage(handle))") }
        }
        guard PQpipelineSync(handle) == 1 else {
            throw PostgresError.connection("pipeline sync failed: \(Self.errorMessage(handle))")
        }

        var results: [PostgresRows] = []
        var firstError: (any Error)?
        var queryIndex = 0
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
                case PGRES_PIPELINE_ABORTED:
                    PQclear(result)
                    queryIndex += 1
                default:
                    let sql = queryIndex < queries.count ? queries[queryIndex].sql : nil
                    queryIndex += 1
                    do {
                        results.append(try Self.check(result, on: handle, sql: sql))
                    } catch {
                        firstError = firstError ?? error
                    }
                }
            }
        }
    }
}
