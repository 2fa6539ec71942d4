import Foundation
import Postgres

/// `summit skis`: the ski catalog PowderMeet's profile picker reads (`skis_catalog`).
enum SkisCommand {
    static let command = Command(
        name: "skis",
        summary: "The ski catalog the PowderMeet app offers riders: import it from a CSV, list it.",
        subcommands: [importCatalog, list])

    static let columns = ["brand", "model", "category", "waist_width_mm", "topsheet_asset_key"]

    static let importCatalog = Command(
        name: "import",
        summary: "Import ski models from a CSV file: added, changed or unchanged by brand and model.",
        discussion: """
            The file is CSV (UTF-8) with a header naming its columns: brand and model (required), category, \
            waist_width_mm (50–200) and topsheet_asset_key (the app's artwork name) — any order, others refused. \
            Every row is checked before anything is written: a bad row refuses the whole file, naming its line. \
            An empty cell clears that value; a column the file leaves out keeps what is stored. \
            Importing the same file again changes nothing; a model no longer in the file is kept.
            """,
        arguments: [Command.Argument(name: "FILE", help: "the CSV file")],
        options: [.flag("--json", "print the report as JSON")],
        run: { invocation in
            let path = invocation.arguments[0]
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError("cannot read \(path)", fix: "give the path of a CSV file with a brand,model,… header")
            }
            let table: CSVTable
            do {
                table = try CSVTable(bytes: Array(data), file: path)
            } catch let problem as CSVTable.Problem {
                throw CLIError(problem.description, fix: "nothing was imported; correct the file and run it again")
            }
            let unknown = table.header.filter { !columns.contains($0) }
            guard unknown.isEmpty, table.header.contains("brand"), table.header.contains("model") else {
                throw CLIError("\(path): the header must name brand and model, and may name \(columns.dropFirst(2).joined(separator: ", "))"
                               + (unknown.isEmpty ? "" : "; unknown: \(unknown.joined(separator: ", "))"),
                               fix: "nothing was imported; rename the columns and run it again")
            }
            let rows: [[String: Any]] = table.rows.map { row in
                var object: [String: Any] = ["line": row.line]
                // A column the file has but a row leaves empty clears the value; a column it lacks keeps it.
                for name in table.header { object[name] = row.cells[name] ?? NSNull() }
                return object
            }
            let json = String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self)
            return try await CatalogImport.run("activity.import_ski_models", rows: json, file: path, things: "models", invocation)
        })

    struct Model: Codable, Sendable {
        var brand: String
        var model: String
        var category: String?
        var waist_width_mm: Int?
        var topsheet_asset_key: String?
    }

    static let list = Command(
        name: "list",
        summary: "List the ski catalog, by brand and model.",
        options: [.flag("--json", "print the models as JSON")],
        run: { invocation in
            let models = try await AppSession.with(try invocation.workspace()) { session in
                try await session.connection.query("""
                    select brand, model, category, waist_width_mm, topsheet_asset_key from activity.ski_models order by brand, model
                    """, as: .serviceRole).decode(Model.self)
            }
            if invocation.json {
                try invocation.console.json(models)
            } else if models.isEmpty {
                invocation.console.out("the ski catalog is empty: summit skis import FILE")
            } else {
                for model in models {
                    let details = [model.category, model.waist_width_mm.map { "\($0) mm" }].compactMap { $0 }.joined(separator: ", ")
                    invocation.console.out("\(model.brand) \(model.model)" + (details.isEmpty ? "" : "  (\(details))"))
                }
            }
            return 0
        })
}
