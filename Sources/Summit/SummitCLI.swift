import Foundation
import ActivityImport
import Migrator
import Postgres
import PostgresServer
import SummitDatabase

/// The `summit` command line: the table of commands and the error handling around them.
public enum SummitCLI {
    public static let root = Command(
        name: "summit",
        summary: "Summit: a self-hosted backend for PowderMeet and AirStrive on PostgreSQL.",
        discussion: """
            Uses the PostgreSQL server in DATABASE_URL, or runs its own in SUMMIT_HOME (default .summit/).
            """,
        subcommands: [
            ServerCommands.up, ServerCommands.down, ServerCommands.status, ServerCommands.psql,
            MigrateCommand.command, DatabaseCommands.testDB, DatabaseCommands.rpc,
            UsersCommand.command, FriendsCommand.command, GridsCommand.command, AdminCommand.command,
            ResortCommand.command, ActivityCommand.command, PhoneCommand.command,
            PresenceCommand.command, WorkerCommand.command, FeedsCommand.command, WeatherCommand.command, ServeCommand.command, MeetCommand.command, DemoCommand.command, BenchForwardCommand.command,
            PushCommand.command, SkisCommand.command,
        ])

    /// Runs the command line and returns the exit status.
    public static func main(_ words: [String]) async -> Int32 {
        await main(words, root: root)
    }

    /// Runs the command table under `root` (summit's own, or another program's built on it).
    package static func main(_ words: [String], root: Command) async -> Int32 {
        let console = Console()
        do {
            switch try ArgumentParser.parse(words, root: root, workspace: { try Workspace.locate() }, console: console) {
            case .help(let text):
                console.out(text)
                return 0
            case .run(let command, let invocation):
                return try await command.run!(invocation)
            }
        } catch {
            console.note("\(root.name): error: " + message(for: error))
            return (error as? CLIError)?.exitCode ?? 1
        }
    }

    /// One readable message for any error that reaches the user.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as CLIError: return error.description
        case let error as SetupError: return error.description
        case let error as RPCRefusal: return error.description
        case let error as ClusterError: return error.description
        case let error as MigrationError: return error.description
        case let error as ActivityImportError: return error.description
        case let error as PostgresError where error.isServerUnavailable:
            // A transaction whose connection died is rolled back; the command can run again once the database answers.
            return "the database connection was lost (the server restarted or failed over): \(error.message); "
                + "what had not committed was not kept: run it again (SQLSTATE \(error.code))"
        case let error as PostgresError:
            var text = error.message
            if let detail = error.detail { text += "\n  detail: \(detail)" }
            if let hint = error.hint { text += "\n  hint: \(hint)" }
            return text + " (SQLSTATE \(error.code))"
        default: return String(describing: error)
        }
    }
}
