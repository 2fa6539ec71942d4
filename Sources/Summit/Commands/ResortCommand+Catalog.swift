import Foundation
import Postgres

/// `summit resort catalog import FILE` and `summit resort catalog list`: the resort
/// catalog operators bring resorts up from (id, name, region, country, passes,
/// aliases, box, centre), imported whole or not at all.
extension ResortCommand {
    static let catalogCommand = Command(
        name: "catalog",
        summary: "The resort catalog: import it from a JSON file, list and search it.",
        subcommands: [catalogImport, catalogList])

    static let catalogImport = Command(
        name: "import",
        summary: "Import resorts from a catalog file: added, changed or unchanged by id; a bad entry refuses the file.",
        discussion: """
            FILE is a JSON array of resorts: {id, name, region, country, pass_products, aliases, \
            bbox: {lat_min, lon_min, lat_max, lon_max}, center: {lat, lon}}. Every entry is checked before \
            anything is written (ids, a box with min < max, the centre inside it, no id twice); the bad ones are \
            named and nothing is imported. Importing the same file again changes nothing. Resorts ingested \
            from an extract keep their snapshots and graphs; their catalog facts are set or updated.
            """,
        arguments: [Command.Argument(name: "FILE", help: "the catalog (JSON)")],
        options: [.flag("--json", "print the counts as JSON")],
        run: { invocation in
            let path = invocation.arguments[0]
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError("cannot read \(path)", fix: "give the path of a catalog JSON file")
            }
            guard (try? JSONSerialization.jsonObject(with: data)) is [Any] else {
                throw CLIError("\(path) is not a JSON array of resorts", fix: "give a file like [{\"id\": \"vail\", \"name\": \"Vail\", \"bbox\": {…}, \"center\": {…}}, …]")
            }
            return try await CatalogImport.run("mountain.import_resort_catalog", rows: String(decoding: data, as: UTF8.self), file: path,
                                               things: "resorts", invocation)
        })

    struct CatalogEntry: Codable, Sendable {
        var id: String
        var name: String
        var region: String?
        var country: String?
        var pass_products: [String]
        var aliases: [String]
        var lat_min: Double
        var lon_min: Double
        var lat_max: Double
        var lon_max: Double
        var center_lat: Double
        var center_lon: Double
    }

    static let catalogList = Command(
        name: "list",
        summary: "List the catalog's resorts, or those whose name, alias, id or region matches --search.",
        options: [.value("--search", "TEXT", "a name, alias, id or region; close spellings match too"),
                  .value("--limit", "N", "at most N resorts (default 500)"), json],
        run: { invocation in
            let search = invocation.value("--search")
            guard let limit = Int(invocation.value("--limit") ?? "500"), (1...500).contains(limit) else {
                throw CLIError.usage("--limit needs a number from 1 to 500", command: invocation.commandPath)
            }
            let rows = try await AppSession.with(try invocation.workspace()) { session in
                try await session.connection.query("""
                    select id, name, region, country, pass_products, aliases, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon
                    from mountain.search_resorts(\(search), \(limit))
                    """, as: .serviceRole).decode(CatalogEntry.self)
            }
            if invocation.json {
                try invocation.console.json(rows)
            } else if rows.isEmpty {
                invocation.console.out(search == nil ? "the catalog is empty: summit resort catalog import FILE"
                                                     : "no resort matches \"\(search!)\"")
            } else {
                for row in rows {
                    let place = [row.region, row.country].compactMap { $0 }.joined(separator: ", ")
                    let passes = row.pass_products.isEmpty ? "" : "  " + row.pass_products.joined(separator: ", ")
                    let also = row.aliases.isEmpty ? "" : "  (also: \(row.aliases.joined(separator: ", ")))"
                    invocation.console.out("\(row.id)  \(row.name)" + (place.isEmpty ? "" : "  \(place)") + passes + also)
                }
            }
            return 0
        })
}
