import Migrator
import Postgres
import SummitDatabase

/// `summit migrate`.
enum MigrateCommand {
    static let command = Command(
        name: "migrate",
        summary: "Apply pending migrations/ and changed sql/ definitions to Summit's database.",
        discussion: """
            Each migration runs once, in its own transaction, and is recorded with its SHA-256; an applied \
            migration that was edited or removed stops everything. The sql/ files are re-applied together, \
            in one transaction, whenever one of them changed or a migration ran.
            """,
        options: [
            .flag("--status", "show what is applied and what is pending; change nothing"),
            .flag("--dry-run", "apply everything inside a transaction, report, and roll it back"),
            .flag("--json", "print the outcome as JSON"),
        ],
        run: { invocation in
            let workspace = try invocation.workspace()
            let source = try workspace.migrationSource()
            let configuration = try await SummitDatabase(workspace: workspace).prepare()
            return try await PostgresConnection.withConnection(configuration) { connection in
                let migrator = Migrator(source: source)
                if invocation.flag("--status") {
                    let status = try await migrator.status(on: connection)
                    try printStatus(status, source: source, console: invocation.console, json: invocation.json)
                    return 0
                }
                let console = invocation.console
                let report = try await migrator.migrate(on: connection, dryRun: invocation.flag("--dry-run")) {
                    console.note($0)
                }
                if invocation.json {
                    try console.json(report)
                } else if report.changedNothing {
                    console.out("up to date: \(source.migrations.count) migrations, \(source.repeatables.count) sql/ files")
                } else {
                    let verb = report.dryRun ? "would apply" : "applied"
                    for file in report.appliedMigrations { console.out("\(verb) migrations/\(file)") }
                    if !report.appliedRepeatables.isEmpty {
                        console.out("\(verb) sql/ (\(report.appliedRepeatables.count) files)")
                    }
                    if report.dryRun { console.out("dry run: rolled back, nothing changed") }
                }
                return 0
            }
        })

    private struct StatusJSON: Encodable {
        struct Entry: Encodable {
            var file: String
            var state: String
            var appliedAt: String?
        }

        var migrations: [Entry]
        var sql: [Entry]
    }

    private static func printStatus(_ status: MigrationStatus, source: MigrationSource, console: Console, json: Bool) throws {
        let applied = Dictionary(uniqueKeysWithValues: status.applied.map { ($0.version, $0) })
        let migrations = source.migrations.map { migration in
            StatusJSON.Entry(file: migration.fileName,
                             state: applied[migration.version] == nil ? "pending" : "applied",
                             appliedAt: applied[migration.version].map { PostgresTimestamp.format($0.appliedAt) })
        }
        let changed = Set(status.changedRepeatables)
        let scripts = source.repeatables.map {
            StatusJSON.Entry(file: $0.fileName, state: changed.contains($0.fileName) ? "changed" : "applied")
        } + status.removedRepeatables.map { StatusJSON.Entry(file: $0, state: "removed") }
        if json { return try console.json(StatusJSON(migrations: migrations, sql: scripts)) }
        var lines: [String] = []
        for entry in migrations {
            lines.append("\(entry.state.padding(toLength: 8, withPad: " ", startingAt: 0)) migrations/\(entry.file)"
                + (entry.appliedAt.map { "  (\($0))" } ?? ""))
        }
        for entry in scripts {
            lines.append("\(entry.state.padding(toLength: 8, withPad: " ", startingAt: 0)) sql/\(entry.file)")
        }
        lines.append(status.isUpToDate ? "up to date" : "run `summit migrate` to apply what is pending")
        console.out(lines.joined(separator: "\n"))
    }
}
