import Foundation
import Postgres

/// Brings a database's schema up to date with a `MigrationSource`.
///
/// Migrations run in version order, each once, each in a transaction of its own,
/// and are recorded with their SHA-256 in `summit.schema_migrations`; an applied
/// file that later changes or disappears stops everything with an error naming
/// it. Repeatable scripts (`sql/`) are re-applied, all of them in the order of
/// `sql/order.txt` in
/// one transaction, whenever any of them changed or a migration ran: a migration
/// that drops and re-creates a table also drops its policies and triggers, and
/// re-applying the whole set is the one way to be sure they all exist.
public struct Migrator: Sendable {
    public let source: MigrationSource

    public init(source: MigrationSource) {
        self.source = source
    }

    /// Serializes concurrent migrators on one database (any 64-bit constant would do).
    static let advisoryLock: Int64 = 0x5355_4D4D_4954  // "SUMMIT"

    /// What `migrate` would do, without doing it.
    public func status(on connection: PostgresConnection) async throws -> MigrationStatus {
        try await Self.bootstrap(connection)
        let applied = try await Self.appliedMigrations(connection)
        let recordedScripts = try await Self.recordedScripts(connection)
        return try plan(applied: applied, recordedScripts: recordedScripts)
    }

    /// Applies what is pending. With `dryRun`, everything runs inside one
    /// transaction that is rolled back, so the SQL is really checked but nothing stays.
    @discardableResult
    public func migrate(
        on connection: PostgresConnection, dryRun: Bool = false,
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> MigrationReport {
        try await connection.query("select pg_advisory_lock(\(Self.advisoryLock))")
        do {
            let report: MigrationReport
            if dryRun {
                report = try await rolledBack(connection) {
                    try await self.apply(on: connection, progress: progress)
                }
            } else {
                report = try await apply(on: connection, progress: progress)
            }
            try await connection.query("select pg_advisory_unlock(\(Self.advisoryLock))")
            return report
        } catch {
            _ = try? await connection.query("select pg_advisory_unlock(\(Self.advisoryLock))")
            throw error
        }
    }

    private func apply(on connection: PostgresConnection, progress: @Sendable (String) -> Void) async throws -> MigrationReport {
        try await Self.bootstrap(connection)
        let plan = try plan(applied: try await Self.appliedMigrations(connection),
                            recordedScripts: try await Self.recordedScripts(connection))
        var report = MigrationReport()
        for migration in plan.pending {
            progress("applying migrations/\(migration.fileName)")
            let started = ContinuousClock.now
            try await connection.transaction { connection in
                try await Self.runScript(migration.sql, named: "migrations/\(migration.fileName)", on: connection)
                let elapsed = ContinuousClock.now - started
                let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
                try await connection.query("""
                    insert into summit.schema_migrations (version, name, sha256, duration_ms)
                    values (\(migration.version), \(migration.name), \(migration.sha256), \(milliseconds))
                    """)
            }
            report.appliedMigrations.append(migration.fileName)
        }
        if plan.repeatablesNeedApplying || !plan.pending.isEmpty {
            progress("applying sql/ (\(source.repeatables.count) files)")
            try await connection.transaction { connection in
                for script in source.repeatables {
                    try await Self.runScript(script.sql, named: "sql/\(script.fileName)", on: connection)
                }
                try await connection.query("delete from summit.repeatable_scripts")
                for script in source.repeatables {
                    try await connection.query("""
                        insert into summit.repeatable_scripts (file_name, sha256) values (\(script.fileName), \(script.sha256))
                        """)
                }
            }
            report.appliedRepeatables = source.repeatables.map(\.fileName)
        }
        return report
    }

    /// Compares the files with what the database recorded; throws on an applied file that changed.
    func plan(applied: [AppliedMigration], recordedScripts: [String: String]) throws -> MigrationStatus {
        let files = Dictionary(uniqueKeysWithValues: source.migrations.map { ($0.version, $0) })
        for record in applied {
            guard let file = files[record.version] else {
                throw MigrationError.missingApplied(fileName: record.fileName, appliedAt: record.appliedAtText)
            }
            guard file.name == record.name else {
                throw MigrationError.renamedAfterApply(version: record.version, applied: record.fileName, current: file.fileName)
            }
            guard file.sha256 == record.sha256 else {
                throw MigrationError.changedAfterApply(fileName: file.fileName, appliedAt: record.appliedAtText,
                                                       recorded: record.sha256, current: file.sha256)
            }
        }
        let appliedVersions = Set(applied.map(\.version))
        let pending = source.migrations.filter { !appliedVersions.contains($0.version) }
        if let newest = applied.max(by: { $0.version < $1.version }),
           let stale = pending.first(where: { $0.version < newest.version }) {
            throw MigrationError.outOfOrder(fileName: stale.fileName, newestApplied: newest.fileName)
        }
        let current = Dictionary(uniqueKeysWithValues: source.repeatables.map { ($0.fileName, $0.sha256) })
        let changed = source.repeatables.filter { recordedScripts[$0.fileName] != $0.sha256 }.map(\.fileName)
        let removed = recordedScripts.keys.filter { current[$0] == nil }.sorted()
        return MigrationStatus(applied: applied, pending: pending, changedRepeatables: changed, removedRepeatables: removed)
    }

    /// Runs one SQL file; a failure names the file and the line the server pointed at.
    public static func runScript(_ sql: String, named fileName: String, on connection: isolated PostgresConnection) async throws {
        do {
            try await connection.simpleQuery(sql)
        } catch let error as PostgresError {
            var message = error.message
            if let detail = error.detail { message += " (\(detail))" }
            if let hint = error.hint { message += " hint: \(hint)" }
            message += " [SQLSTATE \(error.code)]"
            let line = error.position.map { position in
                sql.prefix(position).reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            }
            throw MigrationError.failed(fileName: fileName, line: line, message: message)
        }
    }

    /// The bookkeeping tables; created by the migrator itself, so the first migration can be anything.
    static func bootstrap(_ connection: PostgresConnection) async throws {
        try await connection.simpleQuery("""
            create schema if not exists summit;
            create table if not exists summit.schema_migrations (
              version integer primary key,
              name text not null,
              sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
              applied_at timestamptz not null default now(),
              duration_ms integer not null
            );
            create table if not exists summit.repeatable_scripts (
              file_name text primary key,
              sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
              applied_at timestamptz not null default now()
            );
            alter table summit.schema_migrations enable row level security;
            alter table summit.repeatable_scripts enable row level security;
            """)
    }

    static func appliedMigrations(_ connection: PostgresConnection) async throws -> [AppliedMigration] {
        try await connection.query("""
            select version, name, sha256, applied_at, duration_ms from summit.schema_migrations order by version
            """).decode(AppliedMigration.self)
    }

    static func recordedScripts(_ connection: PostgresConnection) async throws -> [String: String] {
        let rows = try await connection.query("select file_name, sha256 from summit.repeatable_scripts")
        var scripts: [String: String] = [:]
        for row in rows {
            scripts[try row.decode(String.self, at: 0)] = try row.decode(String.self, at: 1)
        }
        return scripts
    }

    private struct DryRun: Error {
        let report: MigrationReport
    }

    private func rolledBack(
        _ connection: PostgresConnection, _ body: @escaping @Sendable () async throws -> MigrationReport
    ) async throws -> MigrationReport {
        do {
            // Throwing out of the transaction is what rolls it back; the report rides on the error.
            _ = try await connection.transaction { _ in throw DryRun(report: try await body()) }
        } catch let dryRun as DryRun {
            var report = dryRun.report
            report.dryRun = true
            return report
        }
        preconditionFailure("a dry run always ends by rolling back")
    }
}

/// A row of `summit.schema_migrations`.
public struct AppliedMigration: Sendable, Decodable, Equatable {
    public let version: Int
    public let name: String
    public let sha256: String
    public let appliedAt: Date
    public let durationMs: Int

    public var fileName: String { String(format: "%04d_%@.sql", version, name) }
    var appliedAtText: String { PostgresTimestamp.format(appliedAt) }
}

/// Where a database stands against the files.
public struct MigrationStatus: Sendable {
    public let applied: [AppliedMigration]
    public let pending: [Migration]
    /// New or edited repeatable scripts.
    public let changedRepeatables: [String]
    /// Scripts recorded as applied whose files are gone.
    public let removedRepeatables: [String]

    public var repeatablesNeedApplying: Bool { !changedRepeatables.isEmpty || !removedRepeatables.isEmpty }
    public var isUpToDate: Bool { pending.isEmpty && !repeatablesNeedApplying }
}

/// What a `migrate` call did (or, for a dry run, would do).
public struct MigrationReport: Sendable, Equatable, Codable {
    public var appliedMigrations: [String] = []
    public var appliedRepeatables: [String] = []
    public var dryRun = false

    public var changedNothing: Bool { appliedMigrations.isEmpty && appliedRepeatables.isEmpty }
}
