import Foundation
import Summit
import Postgres
import SummitDatabase

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
