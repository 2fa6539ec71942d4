import Foundation
import Postgres
import SummitTestSupport
import Testing

/// COPY and pipelines: the two ways to move many rows in few round trips.
@Suite struct BulkTests {
    @Test func copyLoadsEveryTypeAndEscapesText() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("""
                create table runs (id uuid, n int, speed float8, label text, seen timestamptz, raw bytea, tags text[], ok boolean)
                """)
            let when = Date(timeIntervalSince1970: 1_700_000_000.123456)
            var rows: [[any PostgresEncodable]] = (0..<5_000).map { (i: Int) -> [any PostgresEncodable] in
                let label: String = "run \(i)"
                let tags: [String] = ["a", "b\(i)"]
                let raw = Data([UInt8(i % 256)])
                return [UUID(), i, Double(i) / 3, label, when, raw, tags, i % 2 == 0]
            }
            rows.append([UUID(), -1, Double.infinity, "tab\tnewline\nbackslash\\ and \\N", when, Data(), [String](), false])
            rows.append([PostgresNull(), PostgresNull(), PostgresNull(), PostgresNull(), PostgresNull(), PostgresNull(), PostgresNull(), PostgresNull()])
            let copied = try await db.copy(into: "runs", columns: ["id", "n", "speed", "label", "seen", "raw", "tags", "ok"], rows: rows)
            #expect(copied == 5_002)
            #expect(try await db.query("select label from runs where n = -1").scalar(String.self)
                    == "tab\tnewline\nbackslash\\ and \\N")
            #expect(try await db.query("select count(*) from runs where id is null and label is null").scalar(Int.self) == 1)
            #expect(try await db.query("select raw from runs where n = 300").scalar(Data.self) == Data([44]))
            #expect(try await db.query("select tags from runs where n = 7").scalar([String].self) == ["a", "b7"])
            let seen = try await db.query("select seen from runs where n = 1").scalar(Date.self)
            #expect(abs(seen.timeIntervalSince(when)) < 0.000_001)
        }
    }

    @Test func aBadRowAbortsTheWholeCopy() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("create table pairs (a int, b int)")
            let rows: [[any PostgresEncodable]] = [[1, 2], [3, 4], [5]]
            await #expect(throws: PostgresError.self) {
                try await db.copy(into: "pairs", columns: ["a", "b"], rows: rows)
            }
            let badValue: [[any PostgresEncodable]] = [[1, 2], ["not a number", 4]]
            let error = await #expect(throws: PostgresError.self) {
                try await db.copy(into: "pairs", columns: ["a", "b"], rows: badValue)
            }
            #expect(error?.code == .invalidTextRepresentation)
            #expect(try await db.query("select count(*) from pairs").scalar(Int.self) == 0)
            #expect(try await db.query("select 1").scalar(Int.self) == 1)
        }
    }

    @Test func pipelineRunsABatchInOneRoundTrip() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("create table events (n int primary key, label text)")
            var batch: [PostgresQuery] = (0..<500).map { "insert into events values (\($0), \("event \($0)"))" }
            batch.append("select count(*), max(label) from events")
            let results = try await db.pipeline(batch)
            #expect(results.count == 501)
            #expect(results[0].rowsAffected == 1)
            #expect(try results[500].scalar(Int.self) == 500)
        }
    }

    @Test func aFailingStatementUndoesThePipeline() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("create table events (n int primary key)")
            let batch: [PostgresQuery] = ["insert into events values (1)", "insert into events values (1)", "insert into events values (2)"]
            let error = await #expect(throws: PostgresError.self) { _ = try await db.pipeline(batch) }
            #expect(error?.code == .uniqueViolation)
            #expect(error?.query == "insert into events values (1)")
            #expect(try await db.query("select count(*) from events").scalar(Int.self) == 0)
            // The connection leaves pipeline mode cleanly.
            #expect(try await db.query("select 3").scalar(Int.self) == 3)
        }
    }
}
