import Foundation
@testable import Summit
import SummitTestSupport
import Testing

/// `summit resort catalog` through the real binary: the shared catalog of 159 resorts
/// imports once and again unchanged; a file with a bad entry imports nothing.
@Suite(.serialized) struct ResortCatalogCLITests {
    static let catalog = CLIHarness.sharedActivity("../resorts/catalog.json").standardizedFileURL

    @Test(.enabled(if: FileManager.default.fileExists(atPath: catalog.path), "../shared/data/resorts/catalog.json is absent"))
    func theSharedCatalogImportsIdempotentlyAndIsSearchable() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            let first = try await cli.ok("resort", "catalog", "import", Self.catalog.path, "--json").json
            #expect(first["added"].int == 159 && first["unchanged"].int == 0)
            let again = try await cli.ok("resort", "catalog", "import", Self.catalog.path, "--json").json
            #expect(again["added"].int == 0 && again["changed"].int == 0 && again["unchanged"].int == 159)
            let found = try await cli.ok("resort", "catalog", "list", "--search", "Courchevel", "--json").json.array
            #expect(found.first?["id"].string == "les-3-vallees", "an alias finds its resort")
            #expect(try await cli.ok("resort", "catalog", "list", "--json").json.array.count == 159)
            // The catalog is what activity import and the cell channels resolve against.
            #expect(try await cli.scalar("select mountain.resolve_resort_id(39.62, -106.37)", as: String.self) == "vail")
        }
    }

    @Test func aFileWithABadEntryImportsNothingAndNamesIt() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let file = folder.appendingPathComponent("catalog.json")
                try Data("""
                    [{"id": "good", "name": "Good Hill", "bbox": {"lat_min": 46, "lon_min": 7, "lat_max": 46.1, "lon_max": 7.1},
                      "center": {"lat": 46.05, "lon": 7.05}},
                     {"id": "backwards", "name": "Backwards", "bbox": {"lat_min": 46.1, "lon_min": 7, "lat_max": 46, "lon_max": 7.1},
                      "center": {"lat": 46.05, "lon": 7.05}}]
                    """.utf8).write(to: file)
                let refused = try await cli.fails("resort", "catalog", "import", file.path)
                #expect(refused.stderr.contains("resort #2 (backwards): bbox needs lat_min < lat_max") && refused.stderr.contains("nothing was imported"),
                        "\(refused.stderr)")
                #expect(try await cli.scalar("select count(*)::int from mountain.resorts", as: Int.self) == 0)
                try Data("{\"id\": \"x\"}".utf8).write(to: file)
                #expect(try await cli.fails("resort", "catalog", "import", file.path).stderr.contains("not a JSON array"))
            }
        }
    }
}
