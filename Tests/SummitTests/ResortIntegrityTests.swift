import Foundation
import Postgres
@testable import Summit
import SummitTestSupport
import Testing

/// Every integrity failure of the pipeline refuses the whole step, writes
/// nothing, and names what is wrong: the file, the identity, the ways.
@Suite(.serialized) struct ResortIntegrityTests {
    /// What the scratch database holds of the mountain pipeline, table by table.
    func counts(_ cli: CLIHarness) async throws -> [Int] {
        var result: [Int] = []
        for table in ["resorts", "osm_snapshots", "elevation_snapshots", "manifest_drafts", "resort_canonical_manifest",
                      "canonical_trail", "resort_graph_blob", "resort_canonical_publication"] {
            result.append(try await cli.scalar(PostgresQuery(unsafeSQL: "select count(*) from mountain.\(table)"), as: Int.self))
        }
        return result
    }

    @Test func unreadableExtractsAndMissingElevationStoreNothing() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let before = try await counts(cli)
                let garbage = folder.appendingPathComponent("broken-2025-01-01.json")
                try Data("{\"elements\": [{\"type\": \"way\", \"id\": 1, \"nodes\": [1,".utf8).write(to: garbage)
                let broken = try await cli.fails("resort", "ingest", "broken", "--osm", garbage.path)
                #expect(broken.stderr.contains("broken-2025-01-01.json is not a readable OSM extract"))

                // A piste with no elevation anywhere: named, refused, unless the operator says flat.
                let flat = folder.appendingPathComponent("flat-2025-01-01.json")
                try Data(Self.flatExtract.utf8).write(to: flat)
                let refused = try await cli.fails("resort", "ingest", "flat", "--osm", flat.path)
                #expect(refused.stderr.contains("no elevation") && refused.stderr.contains("--assume-flat"))
                #expect(refused.stderr.contains("901"), "the way is named: \(refused.stderr)")

                let badTile = folder.appendingPathComponent("N46E007.hgt")
                try Data([1, 2, 3]).write(to: badTile)
                let tile = try await cli.fails("resort", "ingest", "flat", "--osm", flat.path, "--elevation", badTile.path)
                #expect(tile.stderr.contains("N46E007.hgt is not a usable elevation file"))
                #expect(try await counts(cli) == before, "no refused ingest wrote anything")

                // Flat on request, recorded with the snapshot.
                try await cli.ok("resort", "ingest", "flat", "--osm", flat.path, "--assume-flat")
                #expect(try await cli.scalar("select elevation_policy from mountain.osm_snapshots", as: String.self) == "assume_flat")
                // The same date with other content is refused: snapshots never change.
                let other = folder.appendingPathComponent("other.json")
                try Data(Self.flatExtract.replacingOccurrences(of: "Lone Run", with: "Lonely Run").utf8).write(to: other)
                let clash = try await cli.fails("resort", "ingest", "flat", "--osm", other.path, "--snapshot-date", "2025-01-01", "--assume-flat")
                #expect(clash.stderr.contains("already has a different snapshot dated 2025-01-01"))
            }
        }
    }

    @Test func draftsThatBreakIdentityRulesAreRefusedNamingTheIdentity() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let extract = folder.appendingPathComponent("synthetic.json")
                try await cli.ok("resort", "synth", "--seed", "3", "--size", "1", "--out", extract.path)
                try await cli.ok("resort", "ingest", "synth", "--osm", extract.path, "--snapshot-date", "2026-01-15")
                let draftFile = folder.appendingPathComponent("draft.json")
                try await cli.ok("resort", "review", "synth", "--out", draftFile.path)
                let original = try JSONSerialization.jsonObject(with: Data(contentsOf: draftFile)) as! [String: Any]
                let trails = original["trails"] as! [[String: Any]]
                // Two runs from the same lift top (they fork there or later) and a run on another peak.
                let byLift = Dictionary(grouping: trails) { String(($0["name"] as! String).dropLast()) }
                let sameLift = try #require(byLift.keys.sorted().lazy.compactMap { byLift[$0]! }.first { $0.count >= 2 }?
                    .sorted { ($0["name"] as! String) < ($1["name"] as! String) })
                let peak = (sameLift[0]["name"] as! String).split(separator: " ")[1].split(separator: "-")[0]
                let elsewhere = try #require(trails.first { !(($0["name"] as! String).hasPrefix("Run \(peak)-")) })
                let before = try await counts(cli)

                /// Submits the draft with `edit` applied; it must be refused naming `identity`.
                func refused(_ code: String, _ identity: String, edit: (inout [[String: Any]]) -> Void) async throws {
                    var draft = original
                    var rows = trails
                    edit(&rows)
                    draft["trails"] = rows
                    draft["expected_trail_count"] = rows.count
                    try JSONSerialization.data(withJSONObject: draft).write(to: draftFile)
                    let outcome = try await cli.fails("resort", "review", "synth", "--draft", draftFile.path)
                    #expect(outcome.stderr.contains(code), "\(code) expected: \(outcome.stderr)")
                    #expect(outcome.stderr.contains(identity), "\(identity) not named: \(outcome.stderr)")
                    #expect(try await counts(cli) == before, "a refused draft wrote something (\(code))")
                }

                let first = sameLift[0]["name"] as! String
                let second = sameLift[1]["name"] as! String
                // Duplicate: a second row with the first one's name.
                try await refused("duplicate_identity", "trail:\(first)") { rows in
                    var copy = sameLift[1]
                    copy["name"] = first
                    rows.removeAll { ($0["name"] as! String) == second }
                    rows.append(copy)
                }
                // Missing: a way the snapshot does not have.
                try await refused("missing_identity", "trail:\(first)") { rows in
                    let index = rows.firstIndex { ($0["name"] as! String) == first }!
                    rows[index]["osm_way_ids"] = ["999999999"]
                }
                // Multiply claimed: one way in two rows.
                try await refused("multiply_claimed", "trail:\(second)") { rows in
                    let index = rows.firstIndex { ($0["name"] as! String) == second }!
                    rows[index]["osm_way_ids"] = (sameLift[1]["osm_way_ids"] as! [Any]) + (sameLift[0]["osm_way_ids"] as! [Any])
                }
                // Branched: two runs leaving one lift top as one identity.
                try await refused("branched_identity", "trail:\(first)") { rows in
                    let index = rows.firstIndex { ($0["name"] as! String) == first }!
                    rows[index]["osm_way_ids"] = (sameLift[0]["osm_way_ids"] as! [Any]) + (sameLift[1]["osm_way_ids"] as! [Any])
                    rows.removeAll { ($0["name"] as! String) == second }
                }
                // Disconnected: runs on two different peaks as one identity.
                let far = elsewhere["name"] as! String
                try await refused("disconnected_identity", "trail:\(first)") { rows in
                    let index = rows.firstIndex { ($0["name"] as! String) == first }!
                    rows[index]["osm_way_ids"] = (sameLift[0]["osm_way_ids"] as! [Any]) + (elsewhere["osm_way_ids"] as! [Any])
                    rows.removeAll { ($0["name"] as! String) == far }
                }
            }
        }
    }

    @Test func aBuildThatNoLongerMatchesItsSnapshotStoresNothing() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let extract = folder.appendingPathComponent("synthetic.json")
                try await cli.ok("resort", "synth", "--seed", "4", "--size", "1", "--out", extract.path)
                try await cli.ok("resort", "ingest", "synth", "--osm", extract.path, "--snapshot-date", "2026-01-15")
                try await cli.ok("resort", "apply", "synth")

                // A newer extract without one of the claimed runs: ingest pins it, and the
                // staged v1 no longer builds from the pinned snapshot.
                let manifestTrail = try await cli.scalar(
                    "select name || '|' || osm_way_ids[1] from mountain.canonical_trail order by name limit 1", as: String.self)
                let parts = manifestTrail.split(separator: "|")
                let (name, wayID) = (String(parts[0]), String(parts[1]))
                let trimmed = try Self.removingWay(wayID, from: Data(contentsOf: extract))
                let newer = folder.appendingPathComponent("newer.json")
                try trimmed.write(to: newer)
                try await cli.ok("resort", "ingest", "synth", "--osm", newer.path, "--snapshot-date", "2026-02-15")

                let refused = try await cli.fails("resort", "build", "synth", "--manifest-version", "1")
                #expect(refused.stderr.contains("missing_identity [trail:\(name)] ways \(wayID)"), "\(refused.stderr)")
                #expect(refused.stderr.contains("nothing was stored"))
                #expect(try await cli.scalar("select count(*) from mountain.resort_graph_blob", as: Int.self) == 0)

                // The old snapshot still builds v1, exactly.
                try await cli.ok("resort", "build", "synth", "--manifest-version", "1", "--snapshot-date", "2026-01-15")
                #expect(try await cli.scalar("select count(*) from mountain.resort_graph_blob", as: Int.self) == 1)
            }
        }
    }

    @Test func aCorruptedServedBlobIsRefusedAndNothingIsWritten() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let extract = folder.appendingPathComponent("synthetic.json")
                try await cli.ok("resort", "synth", "--seed", "9", "--size", "1", "--out", extract.path)
                try await cli.ok("resort", "ingest", "synth", "--osm", extract.path, "--snapshot-date", "2026-01-15")
                try await cli.ok("resort", "apply", "synth")
                let built = try await cli.ok("resort", "build", "synth", "--json")
                let sha = try #require(built.json["identity"]["content_sha256"].string)
                let version = try #require(built.json["identity"]["dataset_version"].string)
                try await cli.ok("resort", "publish", "synth", "--manifest-version", "1", "--content-sha256", sha)

                // Blobs are immutable; only the table owner, disabling the guard, can damage one.
                await #expect(throws: PostgresError.self) {
                    try await cli.execute("update mountain.resort_graph_blob set fingerprint = fingerprint")
                }
                try await cli.execute("alter table mountain.resort_graph_blob disable trigger resort_graph_blob_immutable")
                try await cli.execute("update mountain.resort_graph_blob set blob = overlay(blob placing '\\x00'::bytea from 40 for 1)")
                try await cli.execute("alter table mountain.resort_graph_blob enable trigger resort_graph_blob_immutable")
                let out = folder.appendingPathComponent("graph.json")
                let refused = try await cli.fails("resort", "get", "synth", "--out", out.path)
                #expect(refused.stderr.contains(version), "the identity is named: \(refused.stderr)")
                #expect(refused.stderr.contains("blob SHA-256"), "\(refused.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out.path), "nothing was written")
                let geojson = folder.appendingPathComponent("graph.geojson")
                try await cli.fails("resort", "export", "synth", "--geojson", geojson.path)
                #expect(!FileManager.default.fileExists(atPath: geojson.path))
            }
        }
    }

    /// Two vertices, one downhill piste, no elevation anywhere.
    static let flatExtract = """
        {"osm3s": {"timestamp_osm_base": "2025-01-01T00:00:00Z"}, "elements": [
          {"type": "node", "id": 1, "lat": 46.0, "lon": 7.0},
          {"type": "node", "id": 2, "lat": 46.001, "lon": 7.001},
          {"type": "way", "id": 901, "nodes": [1, 2], "tags": {"piste:type": "downhill", "name": "Lone Run"}}
        ]}
        """

    /// The extract without way `id` (its nodes stay).
    static func removingWay(_ id: String, from data: Data) throws -> Data {
        var document = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let elements = document["elements"] as! [[String: Any]]
        document["elements"] = elements.filter { !($0["type"] as? String == "way" && "\($0["id"]!)" == id) }
        return try JSONSerialization.data(withJSONObject: document)
    }
}
