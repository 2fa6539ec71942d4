import Foundation
import Migrator
import Postgres
import PostgresServer
import SummitDatabase

/// `summit up`, `summit down`, `summit status`, `summit psql`.
enum ServerCommands {
    static let up = Command(
        name: "up",
        summary: "Start the embedded PostgreSQL (or check DATABASE_URL), migrate, and print the status.",
        discussion: """
            With no DATABASE_URL, Summit runs its own cluster in SUMMIT_HOME (default: .summit/ in the \
            checkout), on a unix socket only. Running it again reuses the cluster and applies only what changed.
            """,
        options: [.flag("--json", "print the status as JSON")],
        run: { invocation in
            let workspace = try invocation.workspace()
            let database = try SummitDatabase(workspace: workspace)
            if case .embedded(let cluster) = database.server {
                invocation.console.note("starting the embedded PostgreSQL in \(cluster.home.path)…")
            }
            let configuration = try await database.prepare()
            try await PostgresConnection.withConnection(configuration) { connection in
                try await Migrator(source: try workspace.migrationSource())
                    .migrate(on: connection) { invocation.console.note($0) }
            }
            let status = try await StatusReport.gather(workspace: workspace, database: database)
            try status.print(to: invocation.console, json: invocation.json)
            return 0
        })

    static let down = Command(
        name: "down",
        summary: "Stop the embedded PostgreSQL server.",
        options: [.flag("--json", "print the outcome as JSON")],
        run: { invocation in
            let database = try SummitDatabase(workspace: try invocation.workspace())
            guard case .embedded(let cluster) = database.server else {
                throw CLIError("DATABASE_URL is set, and Summit stops only the embedded cluster it runs",
                               fix: "stop that server the way it was started, or unset DATABASE_URL")
            }
            let stopped = try await cluster.stop()
            if invocation.json {
                try invocation.console.json(["stopped": stopped])
            } else {
                invocation.console.out(stopped ? "stopped the embedded PostgreSQL in \(cluster.home.path)"
                                               : "the embedded PostgreSQL in \(cluster.home.path) was not running")
            }
            return 0
        })

    static let status = Command(
        name: "status",
        summary: "Show the server, the database and its migrations, without changing anything.",
        options: [.flag("--json", "print the status as JSON")],
        subcommands: [StatusRefreshCommand.refresh],
        run: { invocation in
            let workspace = try invocation.workspace()
            let status = try await StatusReport.gather(workspace: workspace, database: try SummitDatabase(workspace: workspace))
            try status.print(to: invocation.console, json: invocation.json)
            return 0
        })

    static let psql = Command(
        name: "psql",
        summary: "Open psql on Summit's database (starting the embedded server if needed).",
        discussion: "Arguments after the options go to psql itself, e.g. `summit psql -c 'select 1'`.",
        passesThrough: true,
        run: { invocation in
            let configuration = try await SummitDatabase(workspace: try invocation.workspace()).prepare()
            let psql = try PostgresBinaries.client("psql")
            try replaceProcess(with: [psql, "-d", configuration.conninfo] + invocation.passthrough,
                               fix: "check that psql is installed")
        })
}

/// Where the server and database stand, for `up` and `status`.
struct StatusReport: Encodable {
    struct Server: Encodable {
        var kind: String
        var state: String
        var pid: Int32?
        var socket: String?
        var home: String?
        var target: String
        var url: String?
    }

    struct Migrations: Encodable {
        var applied: [String]
        var pending: [String]
        var changedRepeatables: [String]
        var problem: String?
    }

    var server: Server
    var database: String?
    var migrations: Migrations?

    static func gather(workspace: Workspace, database: SummitDatabase) async throws -> StatusReport {
        var report: StatusReport
        let configuration: PostgresConfiguration?
        switch database.server {
        case .external(let external):
            report = StatusReport(server: Server(kind: "external", state: "unknown", target: external.target))
            configuration = external
        case .embedded(let cluster):
            let state = try await cluster.state()
            var server = Server(kind: "embedded", state: "uninitialized", home: cluster.home.path, target: "-")
            configuration = if case .running(let running) = state {
                running.configuration(database: SummitDatabase.embeddedDatabaseName)
            } else { nil }
            if case .running(let running) = state {
                server.state = "running"
                server.pid = running.pid
                server.socket = "\(running.socketDirectory)/.s.PGSQL.\(running.port)"
                server.target = running.configuration(database: SummitDatabase.embeddedDatabaseName).target
                server.url = "postgresql://\(EmbeddedCluster.superuser)@/\(SummitDatabase.embeddedDatabaseName)?host=\(running.socketDirectory)&port=\(running.port)"
            } else if state == .stopped {
                server.state = "stopped"
            }
            report = StatusReport(server: server)
        }
        guard let configuration else { return report }
        do {
            try await PostgresConnection.withConnection(configuration) { connection in
                report.server.state = "running"
                report.database = configuration.database
                do {
                    let status = try await Migrator(source: try workspace.migrationSource()).status(on: connection)
                    report.migrations = Migrations(applied: status.applied.map(\.fileName),
                                                   pending: status.pending.map(\.fileName),
                                                   changedRepeatables: status.changedRepeatables + status.removedRepeatables)
                } catch let error as MigrationError {
                    report.migrations = Migrations(applied: [], pending: [], changedRepeatables: [], problem: error.description)
                }
            }
        } catch let error as PostgresError where error.isConnectionFailure {
            report.server.state = "unreachable: \(error.message)"
        }
        return report
    }

    func print(to console: Console, json: Bool) throws {
        if json { return try console.json(self) }
        var lines = ["server:      \(server.kind), \(server.state)" + (server.pid.map { " (pid \($0))" } ?? "")]
        if let home = server.home { lines.append("home:        \(home)") }
        if let socket = server.socket { lines.append("socket:      \(socket)") }
        if server.kind == "external" { lines.append("target:      \(server.target)") }
        if let database { lines.append("database:    \(database)") }
        if let migrations {
            if let problem = migrations.problem {
                lines.append("migrations:  PROBLEM: \(problem)")
            } else {
                let latest = migrations.applied.last.map { ", latest \($0)" } ?? ""
                lines.append("migrations:  \(migrations.applied.count) applied, \(migrations.pending.count) pending\(latest)")
                for pending in migrations.pending { lines.append("  pending     \(pending)") }
                lines.append("sql/:        " + (migrations.changedRepeatables.isEmpty ? "up to date"
                    : "changed: " + migrations.changedRepeatables.joined(separator: ", ")))
            }
        }
        if let url = server.url { lines.append("url:         \(url)") }
        if server.state == "running" { lines.append("next:        summit psql   (open a SQL prompt)") }
        console.out(lines.joined(separator: "\n"))
    }
}
