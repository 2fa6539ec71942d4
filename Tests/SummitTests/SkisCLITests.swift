import Foundation
@testable import Summit
import SummitTestSupport
import Testing

/// `summit skis import` through the real binary: the catalog the app's skis_catalog
/// reads, imported whole or not at all, idempotently.
@Suite(.serialized) struct SkisCLITests {
    @Test func aCSVImportsOnceAndABadRowRefusesTheWholeFile() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let good = folder.appendingPathComponent("skis.csv")
                try Data(("brand,model,category,waist_width_mm,topsheet_asset_key\r\n"
                          + "Atomic,Bent 100,freeride,100,atomic_bent_100\r\n"
                          + "\"Salomon\",\"QST 98, 2025\",all-mountain,98,\r\n"
                          + "\r\n"
                          + "Black Crows,\"Atris \"\"Birdie\"\"\",,,\r\n").utf8).write(to: good)
                let first = try await cli.ok("skis", "import", good.path, "--json").json
                #expect(first["added"].int == 3 && first["changed"].int == 0 && first["unchanged"].int == 0 && first["total"].int == 3)
                let again = try await cli.ok("skis", "import", good.path, "--json").json
                #expect(again["added"].int == 0 && again["unchanged"].int == 3, "the same file again changes nothing")
                #expect(try await cli.scalar("select model from activity.ski_models where brand = 'Black Crows'", as: String.self) == #"Atris "Birdie""#)
                #expect(try await cli.scalar("select waist_width_mm from activity.ski_models where model = 'QST 98, 2025'", as: Int.self) == 98)

                let changed = folder.appendingPathComponent("changed.csv")
                try Data("model,brand,waist_width_mm\nBent 100,Atomic,102\nMaverick 95,Atomic,95\n".utf8).write(to: changed)
                let second = try await cli.ok("skis", "import", changed.path, "--json").json
                #expect(second["added"].int == 1 && second["changed"].int == 1 && second["total"].int == 4)

                let bad = folder.appendingPathComponent("bad.csv")
                try Data("brand,model,waist_width_mm\nVolkl,Mantra 102,102\nK2,Mindbender,wide\n".utf8).write(to: bad)
                let refused = try await cli.fails("skis", "import", bad.path)
                #expect(refused.stderr.contains("Line 3") && refused.stderr.contains("nothing was imported"), "\(refused.stderr)")
                #expect(try await cli.scalar("select count(*)::int from activity.ski_models where brand = 'Volkl'", as: Int.self) == 0,
                        "the good row before the bad one was not kept")

                let unknown = folder.appendingPathComponent("unknown.csv")
                try Data("brand,model,length\nK2,Mindbender,180\n".utf8).write(to: unknown)
                #expect(try await cli.fails("skis", "import", unknown.path).stderr.contains("unknown: length"))
                let twice = folder.appendingPathComponent("twice.csv")
                try Data("brand,model\nK2,Reckoner\nK2,Reckoner\n".utf8).write(to: twice)
                #expect(try await cli.fails("skis", "import", twice.path).stderr.contains("twice"))

                let listed = try await cli.ok("skis", "list")
                #expect(listed.stdout.contains("Atomic Bent 100  (freeride, 102 mm)"), "\(listed.stdout)")
            }
        }
    }
}
