import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// `summit activity …` against a real server, on synthetic recordings made by the CLI itself.
@Suite(.serialized) struct ActivityCLITests {
    @Test func importingADayIsIdempotentAndOwnerScoped() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                for name in ["ann", "bob", "cat"] { try await cli.ok("users", "add", name) }
                try await cli.ok("friends", "request", "bob", "--as", "ann")
                try await cli.ok("friends", "accept", "ann", "--as", "bob")

                let day = folder.appendingPathComponent("day.gpx").path
                let truth = try await cli.ok("activity", "synth", "--seed", "3", "--resort-seed", "7", "--out", day, "--json")
                let trueRuns = truth.json.array.filter { $0["kind"].string == "run" }.count
                #expect(trueRuns >= 5)

                let first = try await cli.ok("activity", "import", "--as", "ann", "--resort", "synthetic-7",
                                             "--synthetic-resort", "7", day, "--json")
                let result = first.json[0]
                #expect(result["status"].string == "imported")
                #expect(result["runs_found"].int == trueRuns)
                #expect(result["inserted"].int == trueRuns)
                let trueLifts = truth.json.array.filter { $0["kind"].string == "lift" }.count
                #expect(result["lift_rides"].int == trueLifts && result["lift_rides_matched"].int == trueLifts)
                guard case .number(let share) = result["matched_share"] else { Issue.record("no matched_share"); return }
                #expect(share > 0.9)
                #expect(first.stderr.contains("[1/1] reading"))
                let stored = try await cli.scalar("select count(*) from activity.imported_runs", as: Int.self)
                #expect(stored == trueRuns)
                #expect(try await cli.scalar("select count(*) from activity.imported_runs where match_method = 'strict' and dataset_version like 'm1-v15-%'", as: Int.self) == trueRuns)
                #expect(try await cli.scalar("select count(*) from activity.profile_edge_speeds", as: Int.self) > 0)

                // The same file again changes nothing.
                let again = try await cli.ok("activity", "import", "--as", "ann", "--resort", "synthetic-7",
                                             "--synthetic-resort", "7", day, "--json")
                #expect(again.json[0]["inserted"].int == 0 && again.json[0]["duplicates"].int == trueRuns)
                #expect(try await cli.scalar("select count(*) from activity.imported_runs", as: Int.self) == trueRuns)

                // Runs are ann's alone; her stats are visible to her friend bob, not to cat.
                let runs = try await cli.ok("activity", "runs", "--as", "ann", "--json")
                #expect(runs.json.array.count == trueRuns)
                #expect(try await cli.ok("activity", "runs", "--as", "bob", "--json").json.array.isEmpty)
                let stats = try await cli.ok("activity", "stats", "--as", "bob", "--of", "ann", "--json")
                #expect(stats.json["runs_count"].int == trueRuns)
                let refused = try await cli.fails("activity", "stats", "--as", "cat", "--of", "ann")
                #expect(refused.stderr.contains("cannot see ann's stats"))
            }
        }
    }

    @Test func badFilesAreRefusedBeforeAnythingIsWritten() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("users", "add", "ann")
                let broken = folder.appendingPathComponent("broken.gpx")
                try Data("<gpx><trk><trkseg><trkpt lat=\"46\" lon=\"7\"><time>2025-01-01T10:00:00Z</time></trkpt>".utf8).write(to: broken)
                let walk = folder.appendingPathComponent("walk.gpx")
                try Data("""
                    <gpx><trk><type>running</type><trkseg>
                    <trkpt lat="46" lon="7"><ele>1000</ele><time>2025-01-01T10:00:00Z</time></trkpt>
                    <trkpt lat="46.001" lon="7"><ele>1001</ele><time>2025-01-01T10:01:00Z</time></trkpt>
                    </trkseg></trk></gpx>
                    """.utf8).write(to: walk)
                // A resort the catalog does not hold is refused before any file is read.
                let unknown = try await cli.fails("activity", "import", "--as", "ann", "--resort", "x", walk.path)
                #expect(unknown.stderr.contains("there is no resort x in the catalog") && unknown.stderr.contains("summit resort list"),
                        "\(unknown.stderr)")
                try await cli.execute("""
                    insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
                    values ('x', 'X', 45.99, 6.99, 46.01, 7.01, 46, 7)
                    """)
                #expect(try await cli.ok("resort", "list", "--json").json.array.compactMap { $0["id"].string } == ["x"])
                let outcome = try await cli.run(["activity", "import", "--as", "ann", "--resort", "x", broken.path, walk.path, "--json"])
                #expect(outcome.status == 1)
                #expect(outcome.json[0]["status"].string == "refused")
                #expect(outcome.json[0]["error_code"].string == "truncated")
                #expect(outcome.json[1]["status"].string == "not_ski")
                #expect(outcome.json[1]["reason"].string?.contains("running") == true)
                #expect(try await cli.scalar("select count(*) from activity.imported_runs", as: Int.self) == 0)

                let missing = try await cli.fails("activity", "import", "--as", "ann", "--resort", "x", folder.appendingPathComponent("nope.fit").path)
                #expect(missing.stderr.contains("there is no file"))
                try await cli.fails("activity", "import", "--as", "ann", broken.path)
                try await cli.fails("activity", "import", "--as", "ann", "--resort", "x", "--synthetic-resort", "seven", walk.path)
                #expect(try await cli.ok("activity", "import", "--help").stdout.contains("--synthetic-resort"))
            }
        }
    }

    /// A recording far from the resort it is imported to is refused with the distance and
    /// nothing stored; --force imports it.
    @Test func aRecordingOutsideTheResortIsRefusedUnlessForced() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("users", "add", "ann")
                let day = folder.appendingPathComponent("day.gpx").path
                let truth = try await cli.ok("activity", "synth", "--seed", "3", "--resort-seed", "7", "--out", day, "--json")
                let trueRuns = truth.json.array.filter { $0["kind"].string == "run" }.count
                // A resort on the other side of the world from the synthetic day.
                try await cli.execute("""
                    insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
                    values ('faraway', 'Far Away', -45.1, 168.5, -44.9, 168.7, -45, 168.6)
                    """)
                let refused = try await cli.run(["activity", "import", "--as", "ann", "--resort", "faraway", day, "--json"])
                #expect(refused.status == 1)
                #expect(refused.json[0]["status"].string == "refused" && refused.json[0]["error_code"].string == "outside_resort")
                #expect(refused.json[0]["reason"].string?.contains("km from faraway's area") == true, "\(refused.stdout)")
                #expect(refused.json[0]["reason"].string?.contains("--force") == true)
                #expect(try await cli.scalar("select count(*) from activity.imported_runs", as: Int.self) == 0)

                let forced = try await cli.ok("activity", "import", "--as", "ann", "--resort", "faraway", "--force", day, "--json")
                #expect(forced.json[0]["status"].string == "imported" && forced.json[0]["inserted"].int == trueRuns)
                #expect(try await cli.scalar("select count(*) from activity.imported_runs where resort_id = 'faraway'", as: Int.self) == trueRuns)
            }
        }
    }

    /// A real Slopes day (when ../shared/data is here): the app's own per-run figures are
    /// stored beside Summit's, and the stats use Summit's.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: CLIHarness.sharedActivity("ski/slopes/keystone_2024-01-25.slopes").path),
                   "../shared/data/activities is absent: the real Slopes day cannot be imported"))
    func aSlopesDayKeepsTheAppsFiguresBesideSummits() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("users", "add", "ann")
            try await cli.execute("""
                insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
                values ('keystone', 'Keystone', 39.54, -106.0, 39.62, -105.89, 39.58, -105.94)
                """)
            let day = CLIHarness.sharedActivity("ski/slopes/keystone_2024-01-25.slopes").path
            let imported = try await cli.ok("activity", "import", "--as", "ann", "--resort", "keystone", day, "--json")
            #expect(imported.json[0]["status"].string == "imported" && (imported.json[0]["inserted"].int ?? 0) >= 10, "\(imported.stdout)")
            let runs = try await cli.ok("activity", "runs", "--as", "ann", "--json").json.array
            #expect(!runs.isEmpty && runs.allSatisfy { $0["app_figures"]["vertical_m"].double != nil && $0["app_figures"]["top_speed_ms"].double != nil })
            let summit = runs.reduce(0.0) { $0 + ($1["vertical_m"].double ?? 0) }
            let app = runs.reduce(0.0) { $0 + ($1["app_figures"]["vertical_m"].double ?? 0) }
            #expect(abs(summit - app) / app < 0.05, "Summit \(summit) m against the app's \(app) m")
            let stats = try await cli.ok("activity", "stats", "--as", "ann", "--json").json
            #expect(abs((stats["vertical_m"].double ?? 0) - summit) < 1, "the stats use Summit's own figures")
            #expect(try await cli.ok("activity", "runs", "--as", "ann").stdout.contains("(the app's: "))
        }
    }

    /// A graph file nested 100,000 deep is refused with the limit and what to do,
    /// before any recording is read.
    @Test func aGraphNestedTooDeepIsRefusedWithTheLimit() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("users", "add", "ann")
                let day = folder.appendingPathComponent("day.gpx").path
                try await cli.ok("activity", "synth", "--seed", "3", "--resort-seed", "7", "--out", day)
                let graph = folder.appendingPathComponent("deep-graph.json")
                try Data((#"{"elements":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8)
                    .write(to: graph)
                let refused = try await cli.fails("activity", "import", "--as", "ann", "--resort", "synthetic-7", "--graph", graph.path, day)
                #expect(refused.status == 1)
                #expect(refused.stderr.contains("deep-graph.json is neither a canonical graph nor a buildable Overpass extract"), "\(refused.stderr)")
                #expect(refused.stderr.contains("invalid JSON at byte \(12 + 511): arrays and objects nest more than 512 levels deep"),
                        "\(refused.stderr)")
                #expect(refused.stderr.contains("flatten its nesting"), "\(refused.stderr)")
                #expect(try await cli.scalar("select count(*) from activity.imported_runs", as: Int.self) == 0)
            }
        }
    }
}
