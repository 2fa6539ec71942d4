import Foundation
import Postgres

/// An operator's file imported through one SQL function (the ski catalog, the resort
/// catalog): the function checks every row first and refuses the file naming the bad
/// ones, or answers what it added, changed and left unchanged, and the total after it.
struct CatalogImport: Codable, Sendable {
    var added: Int
    var changed: Int
    var unchanged: Int
    var total: Int

    /// Runs `function(rows)` as the service role and prints its answer (`--json` or a line
    /// saying the catalog holds `total` `things`).
    static func run(_ function: String, rows json: String, file path: String, things: String, _ invocation: Invocation) async throws -> Int32 {
        let report = try await AppSession.with(try invocation.workspace()) { session in
            do {
                return try await session.connection.query("select \(unsafeRaw: function)(\(json)::jsonb)", as: .serviceRole)
                    .scalar(PostgresJSON<CatalogImport>.self).value
            } catch let error as PostgresError where error.code == .raiseException {
                throw CLIError("\(path): \(error.hint ?? error.message)", fix: "nothing was imported; correct what is named and run it again")
            }
        }
        if invocation.json {
            try invocation.console.json(report)
        } else {
            invocation.console.out("\(path): \(report.added) added, \(report.changed) changed, \(report.unchanged) unchanged; "
                                   + "the catalog holds \(report.total) \(things)")
        }
        return 0
    }
}
