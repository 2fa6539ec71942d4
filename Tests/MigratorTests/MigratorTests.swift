import Foundation
import Migrator
import Postgres
import PostgresServer
import SummitTestSupport
import Testing

/// A project of migration files in a temporary folder.
struct Project {
    let root: URL
    var migrations: URL { root.appendingPathComponent("migrations") }
    var sql: URL { root.appendingPathComponent("sql") }

    init(_ root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: sql, withIntermediateDirectories: true)
        try "".write(to: sql.appendingPathComponent(MigrationSource.orderFileName), atomically: true, encoding: .utf8)
    }

    /// Writes a file; a new one under `sql/` is listed last in `sql/order.txt`.
    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        let isNew = !FileManager.default.fileExists(atPath: url.path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        if isNew, path.hasPrefix("sql/"), path.hasSuffix(".sql") {
            let order = sql.appendingPathComponent(MigrationSource.orderFileName)
            try (try String(contentsOf: order, encoding: .utf8) + path.dropFirst(4) + "\n").write(to: order, atomically: true, encoding: .utf8)
        }
    }

    /// Writes a file as it is, listing nothing.
    func writeUnlisted(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func source() throws -> MigrationSource {
        try MigrationSource(migrationsDirectory: migrations, repeatablesDirectory: sql)
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent(path))
    }

    func migrator() throws -> Migrator {
        Migrator(source: try source())
    }
}

@Suite struct MigratorTests {
    @Test func appliesEachMigrationOnceAndRecordsIt() async throws {
        try await withTemporaryFolder { folder in
            let project = try Project(folder)
            try project.write("migrations/0001_notes.sql", "create table notes (id int primary key, body text);")
            try project.write("migrations/0002_more.sql", "alter table notes add column tag text;")
            try project.write("sql/0001_view.sql", "create or replace view note_tags as select tag from notes;")
            try await withEmptyDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    let first = try await project.migrator().migrate(on: db)
                    #expect(first.appliedMigrations == ["0001_notes.sql", "0002_more.sql"])
                    #expect(first.appliedRepeatables == ["0001_view.sql"])
                    let second = try await project.migrator().migrate(on: db)
                    #expect(second.changedNothing)
                    let recorded = try await db.query("select version, name, sha256 from summit.schema_migrations order by version")
                    #expect(try recorded.map { try $0.decode(String.self, at: 1) } == ["notes", "more"])
                    #expect(try recorded[0].decode(String.self, at: 2).count == 64)

                    // A new migration applies alone; the sql/ set follows it.
                    try project.write("migrations/0003_index.sql", "create index notes_tag on notes (tag);")
                    let third = try await project.migrator().migrate(on: db)
                    #expect(third.appliedMigrations == ["0003_index.sql"])
                    #expect(third.appliedRepeatables == ["0001_view.sql"])
                }
            }
        }
    }

    @Test func anEditedAppliedMigrationStopsWithItsName() async throws {
        try await withTemporaryFolder { folder in
            let project = try Project(folder)
            try project.write("migrations/0001_notes.sql", "create table notes (id int);")
            try await withEmptyDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    try await project.migrator().migrate(on: db)
                    try project.write("migrations/0001_notes.sql", "create table notes (id bigint);")
                    let error = await #expect(throws: MigrationError.self) { try await project.migrator().migrate(on: db) }
                    #expect(error?.description.contains("migrations/0001_notes.sql changed after it was applied") == true)
                    #expect(error?.description.contains("new migration") == true)
                    await #expect(throws: MigrationError.self) { _ = try await project.migrator().status(on: db) }

                    try project.remove("migrations/0001_notes.sql")
                    let missing = await #expect(throws: MigrationError.self) { try await project.migrator().migrate(on: db) }
                    #expect(missing?.description.contains("gone") == true)
                }
            }
        }
    }

    @Test func aFailingMigrationKeepsNothingAndNamesFileAndLine() async throws {
        try await withTemporaryFolder { folder in
            let project = try Project(folder)
            try project.write("migrations/0001_ok.sql", "create table a (id int);")
            try project.write("migrations/0002_broken.sql", "create table b (id int);\n\ncreate table c (id nosuchtype);\n")
            try await withEmptyDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    let error = await #expect(throws: MigrationError.self) { try await project.migrator().migrate(on: db) }
                    guard case .failed(let file, let line, let message) = error else {
                        Issue.record("expected a failed migration, got \(String(describing: error))")
                        return
                    }
                    #expect(file == "migrations/0002_broken.sql")
                    #expect(line == 3)
                    #expect(message.contains("nosuchtype"))
                    let tables = try await db.query("select count(*) from pg_tables where tablename in ('a', 'b', 'c')").scalar(Int.self)
                    #expect(tables == 1, "0001 stays applied, nothing of 0002 is kept")
                    let versions = try await db.query("select array_agg(version) from summit.schema_migrations").scalar([Int].self)
                    #expect(versions == [1])
                }
            }
        }
    }

    @Test func repeatablesRunOnlyWhenTheyChange() async throws {
        try await withTemporaryFolder { folder in
            let project = try Project(folder)
            try project.write("migrations/0001_log.sql", "create table runs (at timestamptz default clock_timestamp());")
            // Each application of the set leaves a row: a visible count of runs.
            try project.write("sql/0001_count.sql", "insert into runs default values;")
            try await withEmptyDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    try await project.migrator().migrate(on: db)
                    try await project.migrator().migrate(on: db)
                    #expect(try await db.query("select count(*) from runs").scalar(Int.self) == 1)
                    try project.write("sql/0001_count.sql", "insert into runs default values; -- edited")
                    let report = try await project.migrator().migrate(on: db)
                    #expect(report.appliedRepeatables == ["0001_count.sql"])
                    #expect(try await db.query("select count(*) from runs").scalar(Int.self) == 2)
                    let status = try await project.migrator().status(on: db)
                    #expect(status.isUpToDate)
                }
            }
        }
    }

    @Test func aDryRunChecksTheSQLButKeepsNothing() async throws {
        try await withTemporaryFolder { folder in
            let project = try Project(folder)
            try project.write("migrations/0001_notes.sql", "create table notes (id int);")
            try project.write("sql/0001_fn.sql", "create or replace function f() returns int language sql as 'select 1';")
            try await withEmptyDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    let report = try await project.migrator().migrate(on: db, dryRun: true)
                    #expect(report.dryRun)
                    #expect(report.appliedMigrations == ["0001_notes.sql"])
                    #expect(try await db.query("select count(*) from pg_tables where tablename = 'notes'").scalar(Int.self) == 0)
                    let status = try await project.migrator().status(on: db)
                    #expect(status.pending.count == 1)
                }
            }
        }
    }

    @Test func badFilesAreRefusedBeforeAnythingRuns() throws {
        try withTemporaryFolderSync { folder in
            let project = try Project(folder)
            try project.write("migrations/1_short.sql", "select 1;")
            #expect(throws: MigrationError.badFileName("1_short.sql")) { _ = try project.migrator() }
            try project.remove("migrations/1_short.sql")

            try project.write("migrations/0001_a.sql", "select 1;")
            try project.write("migrations/0001_b.sql", "select 2;")
            #expect(throws: MigrationError.duplicateVersion(1, "0001_a.sql", "0001_b.sql")) { _ = try project.migrator() }
            try project.remove("migrations/0001_b.sql")

            try project.write("migrations/0002_tx.sql", "create table t (id int);\ncommit;\n")
            #expect(throws: MigrationError.transactionControl("migrations/0002_tx.sql", line: 2)) { _ = try project.migrator() }

            // BEGIN … END inside a function body is not transaction control.
            try project.write("migrations/0002_tx.sql", """
                create function g() returns int language plpgsql as $$
                begin
                  return 1;
                end;
                $$;
                """)
            _ = try project.migrator()
        }
    }

    /// The project's own migrations, applied twice, give byte-identical schema dumps.
    @Test func migratingTwiceGivesAnIdenticalSchema() async throws {
        let workspace = TestServer.workspace
        try await withEmptyDatabase { configuration in
            let migrator = Migrator(source: try workspace.migrationSource())
            try await PostgresConnection.withConnection(configuration) { try await migrator.migrate(on: $0) }
            let first = try await schemaDump(configuration)
            let again = try await PostgresConnection.withConnection(configuration) { try await migrator.migrate(on: $0) }
            #expect(again.changedNothing)
            let second = try await schemaDump(configuration)
            #expect(first == second)
            #expect(first.contains("CREATE FUNCTION auth.uid()"))
        }
    }

    func schemaDump(_ configuration: PostgresConfiguration) async throws -> String {
        let output = try await Subprocess(
            executable: try PostgresBinaries.client("pg_dump"),
            arguments: ["--schema-only", "--no-owner", "-d", configuration.conninfo]).run()
        #expect(output.succeeded, "pg_dump: \(output.stderr)")
        // pg_dump wraps its output in \restrict / \unrestrict lines with a random key per run.
        return output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("\\restrict ") && !$0.hasPrefix("\\unrestrict ") }
            .joined(separator: "\n")
    }
}

func withTemporaryFolderSync<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("summit-test-" + UUID().uuidString.prefix(8))
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
