import Foundation
import Postgres
import PostgresServer
import SummitDatabase

/// `summit rpc` and `summit test-db`.
enum DatabaseCommands {
    static let rpc = Command(
        name: "rpc",
        summary: "Call a SQL function with named arguments as a user, and print its result as JSON.",
        discussion: """
            Runs in one transaction with the caller's role and JWT claims, so row level security and \
            auth.uid() see exactly what an app signed in as that user would. Example:
              summit rpc social.send_friend_request --as ann@example.com --arg target=bob
            """,
        arguments: [.init(name: "FUNCTION", help: "schema.function, or function in schema public")],
        options: [
            .value("--as", "USER", "a user id or email, anon, or service_role"),
            .value("--arg", "NAME=VALUE", "a named argument, in PostgreSQL's text form", repeatable: true),
            .flag("--json", "compact JSON on one line (default: indented)"),
        ],
        run: { invocation in
            let callerText = try invocation.required("--as")
            let arguments = try invocation.values("--arg").map { pair -> (name: String, value: String) in
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw CLIError.usage("--arg \(pair) is not NAME=VALUE", command: invocation.commandPath)
                }
                return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
            }
            let configuration = try await SummitDatabase(workspace: try invocation.workspace()).prepare()
            let output = try await PostgresConnection.withConnection(configuration) { connection in
                let caller = try await RemoteProcedureCall.resolveCaller(callerText, on: connection)
                return try await RemoteProcedureCall(invocation.arguments[0], arguments: arguments)
                    .call(as: caller, on: connection)
            }
            invocation.console.out(invocation.json ? output : prettyJSON(output))
            return 0
        })

    static func prettyJSON(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(withJSONObject: object,
                                                     options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return text }
        return String(decoding: data, as: UTF8.self)
    }

    static let testDB = Command(
        name: "test-db",
        summary: "Run the pgTAP tests: each file in a fresh database cloned from the migrated test template.",
        discussion: """
            Prints each file's TAP output and a summary; exits non-zero when any test fails. \
            The template (migrations, sql/, pgTAP and the tests.* helpers) is rebuilt only when those files change.
            """,
        arguments: [.init(name: "FILE", help: "pgtap files to run (default: every pgtap/*.sql)", variadic: true)],
        options: [
            .flag("--quiet", "print only failures and the summary"),
            .value("--jobs", "N", "files run at once (default 2)"),
            .flag("--json", "print the results as JSON"),
        ],
        run: { invocation in
            let workspace = try invocation.workspace()
            let files = invocation.arguments.isEmpty ? try PgTapRunner.testFiles(in: workspace)
                : invocation.arguments.map { $0.hasPrefix("pgtap/") ? $0 : "pgtap/" + ($0 as NSString).lastPathComponent }
            guard !files.isEmpty else { throw CLIError("no pgtap/*.sql files found", fix: "add tests under \(workspace.pgtapDirectory.path)") }
            for file in files where !FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent(file).path) {
                throw CLIError("\(file) does not exist", fix: "give paths of files under pgtap/")
            }
            guard let jobs = Int(invocation.value("--jobs") ?? "2"), jobs > 0 else {
                throw CLIError.usage("--jobs needs a positive number", command: invocation.commandPath)
            }
            let admin = try await SummitDatabase(workspace: workspace).prepareAdmin()
            let runner = PgTapRunner(databases: TestDatabases(admin: admin, workspace: workspace),
                                     psql: try PostgresBinaries.client("psql"), jobs: jobs)
            let console = invocation.console
            let quiet = invocation.flag("--quiet") || invocation.json
            let started = ContinuousClock.now
            let results = try await runner.run(files: files) { result in
                if !quiet { console.out("# \(result.file)\n" + result.output.trimmingCharacters(in: .newlines)) }
                if !invocation.json { console.out(summaryLine(result)) }
                if !result.ok, !invocation.json { console.out(failureDetail(result)) }
            }
            let elapsed = ContinuousClock.now - started
            let tests = results.map(\.tap.ran).reduce(0, +)
            let failed = results.filter { !$0.ok }
            if invocation.json {
                try console.json(results)
            } else {
                console.out("Files=\(results.count), Tests=\(tests), \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); "
                            + "Result: \(failed.isEmpty ? "PASS" : "FAIL (\(failed.map(\.file).joined(separator: ", ")))")")
            }
            return failed.isEmpty ? 0 : 1
        })

    static func summaryLine(_ result: PgTapRunner.FileResult) -> String {
        let planned = result.tap.planned.map(String.init) ?? "?"
        let verdict = result.ok ? "ok" : "FAILED"
        return "\(result.file) .. \(verdict) (\(result.tap.ran)/\(planned) tests, \(String(format: "%.2f", result.seconds))s)"
    }

    static func failureDetail(_ result: PgTapRunner.FileResult) -> String {
        var lines: [String] = []
        for failure in result.tap.failures {
            lines.append("  not ok \(failure.number) - \(failure.description)")
            lines.append(contentsOf: failure.diagnostics.map { "    " + $0 })
        }
        if result.tap.planned == nil { lines.append("  no plan: the file must call plan(N) or no_plan()") }
        if let planned = result.tap.planned, planned != result.tap.ran {
            lines.append("  planned \(planned) tests but ran \(result.tap.ran)")
        }
        if let bail = result.tap.bailOut { lines.append("  \(bail)") }
        if result.exitStatus != 0 {
            lines.append("  psql stopped with status \(result.exitStatus):")
            lines.append(contentsOf: result.errors.split(separator: "\n").map { "    " + $0 })
        }
        return lines.joined(separator: "\n")
    }
}
