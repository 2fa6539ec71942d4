import Foundation
import Postgres

extension BenchCommand {
    /// Runs a benchmark on a scratch database — cloned from the migrated test
    /// template, or empty — and drops it afterwards, also when the run fails,
    /// unless `--keep` asks to look at it.
    static func onScratchDatabase<Result: Sendable>(
        _ invocation: Invocation, empty: Bool = false,
        _ body: (PostgresConfiguration, Workspace) async throws -> Result
    ) async throws -> Result {
        let workspace = try invocation.workspace()
        let databases = TestDatabases(admin: try await SummitDatabase(workspace: workspace).prepareAdmin(), workspace: workspace)
        let keep = invocation.flag("--keep")
        let scratch: PostgresConfiguration
        if empty {
            scratch = try await databases.createEmpty()
        } else {
            invocation.console.note("preparing a scratch database from the test template…")
            scratch = try await databases.create(from: try await databases.template())
        }
        let result: Result
        do {
            result = try await body(scratch, workspace)
        } catch {
            if !keep { try? await databases.drop(scratch) }
            throw error
        }
        if keep {
            invocation.console.note("kept the scratch database \(scratch.database ?? "")")
        } else {
            try await databases.drop(scratch)
        }
        return result
    }
}

extension Invocation {
    /// `--name N`: a whole number of at least `minimum` (underscores allowed, as in 100_000), or `fallback`.
    func wholeNumber(_ name: String, default fallback: Int, minimum: Int = 1) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= minimum else {
            throw CLIError.usage("\(name) takes a whole number of at least \(minimum), not \"\(text)\"", command: commandPath)
        }
        return number
    }

    /// `--name X`: a number of at least `minimum`, or `fallback`.
    func number(_ name: String, default fallback: Double, minimum: Double) throws -> Double {
        guard let text = value(name) else { return fallback }
        guard let number = Double(text), number >= minimum else {
            throw CLIError.usage("\(name) takes a number of at least \(minimum.formatted()), not \"\(text)\"", command: commandPath)
        }
        return number
    }
}
