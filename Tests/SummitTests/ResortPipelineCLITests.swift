import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// The canonical pipeline end to end through the real `summit` binary, on a
/// synthetic resort: ingest → review → apply → build → publish → get, a second
/// version, rollback, exact replay, and determinism across processes.
@Suite(.serialized) struct ResortPipelineCLITests {
    @Test func aSyntheticResortGoesFromExtractToPublishedGraphAndBack() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let extract = folder.appendingPathComponent("synthetic.json").path
                try await cli.ok("resort", "synth", "--seed", "11", "--size", "1", "--out", extract)

                // A file without a data date needs one: refused before anything is stored.
                let dateless = try await cli.fails("resort", "ingest", "synth", "--osm", extract)
                #expect(dateless.stderr.contains("--snapshot-date"))
                #expect(try await cli.scalar("select count(*) from mountain.resorts", as: Int.self) == 0)

                let ingested = try await cli.ok("resort", "ingest", "synth", "--osm", extract, "--snapshot-date", "2026-01-15",
                                                "--name", "Synthetic Eleven", "--timezone", "Europe/Zurich", "--json")
                let report = ingested.json["report"]
                let trails = try #require(report["trails"].int)
                let lifts = try #require(report["lifts"].int)
                #expect(trails > 20 && lifts > 10)
                #expect(report["graph"]["nodes"].int ?? 0 > 0)
                #expect(report["unresolved"].array.isEmpty, "synthetic names are unique and each is one way")
                #expect(try await cli.scalar("select timezone from mountain.resorts where id = 'synth'", as: String.self) == "Europe/Zurich")
                #expect(try await cli.scalar("select to_char(snapshot_date, 'YYYY-MM-DD') from mountain.resort_snapshot_pins where resort_id = 'synth'",
                                             as: String.self) == "2026-01-15")

                // Review prints the report without changing the draft.
                let reviewed = try await cli.ok("resort", "review", "synth")
                #expect(reviewed.stdout.contains("identities: \(trails) trails, \(lifts) lifts"))
                #expect(reviewed.stdout.contains("open lift tops reaching an open run"))
                #expect(try await cli.scalar("select count(*) from mountain.manifest_drafts", as: Int.self) == 1)

                // apply --dry-run stages nothing; apply stages v1; again: nothing new.
                let dry = try await cli.ok("resort", "apply", "synth", "--dry-run", "--json")
                #expect(dry.json["manifest_version"].int == 1 && dry.json["dry_run"].bool == true)
                #expect(try await cli.scalar("select count(*) from mountain.resort_canonical_manifest", as: Int.self) == 0)
                #expect(try await cli.ok("resort", "apply", "synth", "--json").json["staged"].bool == true)
                let again = try await cli.ok("resort", "apply", "synth", "--json")
                #expect(again.json["staged"].bool == false && again.json["manifest_version"].int == 1)
                #expect(try await cli.scalar("select count(*) from mountain.canonical_trail", as: Int.self) == trails)

                // Nothing is published yet.
                try await cli.ok("users", "add", "ann")
                let nothing = try await cli.fails("resort", "get", "synth", "--as", "ann")
                #expect(nothing.stderr.contains("no_canonical_dataset"))

                // Build: progress on stderr, the identity on stdout; a second build is the stored one.
                let built = try await cli.ok("resort", "build", "synth", "--json")
                #expect(built.stderr.contains("building graph v15"))
                let v1 = try identity(built.json["identity"])
                #expect(built.json["cached"].bool == false)
                #expect(built.json["report"]["runs_by_difficulty"]["blue"].int ?? 0 > 0)
                #expect(try await cli.ok("resort", "build", "synth", "--json").json["cached"].bool == true)
                #expect(try await cli.scalar("select count(*) from mountain.resort_graph_blob", as: Int.self) == 1)
                // Built but unpublished: clients still see nothing.
                try await cli.fails("resort", "get", "synth", "--as", "ann")

                // Publish, then fetch as a client: verified, and cache_valid once cached.
                let published = try await cli.ok("resort", "publish", "synth", "--manifest-version", "1", "--content-sha256", v1.sha, "--json")
                #expect(published.json["status"].string == "published")
                let out = folder.appendingPathComponent("graph.json")
                let fetched = try await cli.ok("resort", "get", "synth", "--as", "ann", "--out", out.path, "--json")
                #expect(fetched.json["status"].string == "fetch")
                #expect(fetched.json["verified"].bool == true)
                #expect(fetched.json["identity"]["dataset_version"].string == v1.datasetVersion)
                // The canonical JSON written out hashes to the content SHA.
                #expect(try await cli.scalar("select encode(sha256(\(try Data(contentsOf: out))), 'hex')", as: String.self) == v1.sha)
                let cached = try await cli.ok("resort", "get", "synth", "--as", "ann", "--cached-manifest-version", "1",
                                              "--cached-content-sha256", v1.sha, "--json")
                #expect(cached.json["status"].string == "cache_valid")
                #expect(cached.json["verified"].bool == false)
                let otherSHA = String(repeating: "0", count: 64)
                #expect(try await cli.ok("resort", "get", "synth", "--as", "ann", "--cached-manifest-version", "1",
                                         "--cached-content-sha256", otherSHA, "--json").json["status"].string == "fetch")

                // Version 2: an edited draft (a trail re-rated), reviewed, applied, built.
                let draftFile = folder.appendingPathComponent("draft.json")
                try await cli.ok("resort", "review", "synth", "--out", draftFile.path)
                var draft = try JSONSerialization.jsonObject(with: Data(contentsOf: draftFile)) as! [String: Any]
                var rows = draft["trails"] as! [[String: Any]]
                rows[0]["difficulty"] = "black"
                rows[0]["has_moguls"] = true
                draft["trails"] = rows
                try JSONSerialization.data(withJSONObject: draft).write(to: draftFile)
                #expect(try await cli.ok("resort", "review", "synth", "--draft", draftFile.path, "--json").json["draft_revision"].int == 2)
                #expect(try await cli.ok("resort", "apply", "synth", "--json").json["manifest_version"].int == 2)
                let v2 = try identity(try await cli.ok("resort", "build", "synth", "--json").json["identity"])
                #expect(v2.sha != v1.sha)
                #expect(v2.datasetVersion.hasPrefix("m2-v15-"))
                // Staged and built v2 does not move clients.
                #expect(try await cli.ok("resort", "get", "synth", "--as", "ann", "--json").json["identity"]["manifest_version"].int == 1)

                // Publish v2, roll back to v1, reactivate v2.
                #expect(try await cli.ok("resort", "publish", "synth", "--manifest-version", "2", "--content-sha256", v2.sha, "--json")
                    .json["status"].string == "published")
                #expect(try await cli.ok("resort", "get", "synth", "--as", "ann", "--json").json["identity"]["manifest_version"].int == 2)
                let rollback = try await cli.ok("resort", "publish", "synth", "--manifest-version", "1", "--content-sha256", v1.sha, "--json")
                #expect(rollback.json["status"].string == "rolled_back")
                #expect(rollback.json["previous"]["dataset_version"].string == v2.datasetVersion)
                #expect(try await cli.ok("resort", "get", "synth", "--as", "ann", "--json").json["identity"]["manifest_version"].int == 1)

                // Exact replay of the inactive v2 from history, by its full dataset_version.
                let replay = try await cli.ok("resort", "get", "synth", "--as", "ann", "--dataset-version", v2.datasetVersion, "--json")
                #expect(replay.json["status"].string == "fetch" && replay.json["exact"].bool == true)
                #expect(replay.json["identity"]["content_sha256"].string == v2.sha)
                #expect(replay.json["current"]["content_sha256"].string == v1.sha)
                let unknown = try await cli.fails("resort", "get", "synth", "--as", "ann", "--dataset-version", "m2-v15-\(otherSHA)")
                #expect(unknown.stderr.contains("not_found"))
                // A manifest-only request is served, but never as an exact match.
                #expect(try await cli.ok("resort", "get", "synth", "--as", "ann", "--manifest-version", "2", "--json").json["exact"].bool == false)

                // Publishing something that was not built is refused, naming the identity.
                let wrong = try await cli.fails("resort", "publish", "synth", "--manifest-version", "2", "--content-sha256", v1.sha)
                #expect(wrong.stderr.contains("no v15 build of synth v2 with content sha256 \(v1.sha)"))

                // GeoJSON of the active graph.
                let geojson = folder.appendingPathComponent("synth.geojson")
                try await cli.ok("resort", "export", "synth", "--geojson", geojson.path, "--as", "ann")
                let collection = try JSONSerialization.jsonObject(with: Data(contentsOf: geojson)) as! [String: Any]
                #expect(collection["type"] as? String == "FeatureCollection")
                #expect((collection["features"] as? [Any])?.count ?? 0 > v1.nodes)

                // Anon may not fetch.
                try await cli.fails("resort", "get", "synth", "--as", "anon")
            }
        }
    }

    /// A built version never dead-ends the pipeline: rendezvous points edited
    /// into the draft after a build are the next manifest version, which
    /// builds and publishes; every step names the exact command after it.
    @Test func anOverlayEditedAfterABuildIsTheNextVersionThroughToPublish() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let extract = folder.appendingPathComponent("synthetic.json")
                try await cli.ok("resort", "synth", "--seed", "11", "--size", "1", "--out", extract.path)
                try await cli.ok("resort", "ingest", "rv", "--osm", extract.path, "--snapshot-date", "2026-01-15")
                #expect(try await cli.ok("resort", "apply", "rv").stdout.contains("next: summit resort build rv --manifest-version 1"))
                let v1 = try identity(try await cli.ok("resort", "build", "rv", "--json").json["identity"])

                // Anchor two points on a lift's stations: vertices every build has.
                let osm = try JSONSerialization.jsonObject(with: Data(contentsOf: extract)) as! [String: Any]
                let lift = try #require((osm["elements"] as! [[String: Any]]).first {
                    $0["type"] as? String == "way" && ($0["tags"] as? [String: Any])?["aerialway"] != nil
                })
                let stations = lift["nodes"] as! [Int]
                let draftFile = folder.appendingPathComponent("draft.json")
                try await cli.ok("resort", "review", "rv", "--out", draftFile.path)
                var draft = try JSONSerialization.jsonObject(with: Data(contentsOf: draftFile)) as! [String: Any]
                #expect((draft["rendezvous_points"] as? [Any])?.isEmpty == true)
                draft["rendezvous_points"] = [
                    ["anchor_osm_node_id": stations.first!, "kind": "liftBase", "display_name": "Lift Base", "confidence": 1, "quality": 0.9],
                    ["anchor_osm_node_id": stations.last!, "kind": "liftTop", "display_name": "Lift Top", "confidence": 0.8, "quality": 0.7],
                ]
                try JSONSerialization.data(withJSONObject: draft).write(to: draftFile)
                #expect(try await cli.ok("resort", "review", "rv", "--draft", draftFile.path, "--json").json["draft_revision"].int == 2)

                // The overlay alone makes v2, with its own content hash; v1 and its build stay as they were.
                let hash1 = try await cli.scalar("select content_hash from mountain.resort_canonical_manifest where resort_id = 'rv' and manifest_version = 1",
                                                 as: String.self)
                let applied = try await cli.ok("resort", "apply", "rv", "--json")
                #expect(applied.json["staged"].bool == true && applied.json["manifest_version"].int == 2)
                #expect(applied.json["rendezvous_points"].int == 2)
                #expect(applied.json["content_hash"].string != hash1)
                #expect(try await cli.scalar("select count(*) from mountain.canonical_rendezvous_point where resort_id = 'rv' and manifest_version = 1",
                                             as: Int.self) == 0)
                #expect(try await cli.scalar("select count(*) from mountain.canonical_rendezvous_point where resort_id = 'rv' and manifest_version = 2",
                                             as: Int.self) == 2)
                let again = try await cli.ok("resort", "apply", "rv")
                #expect(again.stdout.contains("staged nothing: the newest manifest already has this content, rv manifest v2"),
                        "the same overlay again is nothing new")
                #expect(again.stdout.contains("next: summit resort build rv --manifest-version 2\n"))
                #expect(again.stdout.contains("to change it: summit resort review rv --out draft.json"))

                let built = try await cli.ok("resort", "build", "rv", "--manifest-version", "2", "--json")
                let v2 = try identity(built.json["identity"])
                #expect(v2.datasetVersion.hasPrefix("m2-v15-") && v2.sha != v1.sha)
                #expect(try await cli.scalar("select sha256 from mountain.resort_graph_blob where resort_id = 'rv' and manifest_version = 1",
                                             as: String.self) == v1.sha)
                let rebuilt = try await cli.ok("resort", "build", "rv", "--manifest-version", "2")
                #expect(rebuilt.stdout.contains("next: summit resort publish rv --manifest-version 2 --content-sha256 \(v2.sha)\n"))

                // Publish the way the build said to; it names the way back and the way to look.
                try await cli.ok("resort", "publish", "rv", "--manifest-version", "1", "--content-sha256", v1.sha)
                let published = try await cli.ok("resort", "publish", "rv", "--manifest-version", "2", "--content-sha256", v2.sha)
                #expect(published.stdout.hasPrefix("published rv \(v2.datasetVersion)"))
                #expect(published.stdout.contains("to go back: summit resort publish rv --manifest-version 1 --content-sha256 \(v1.sha)\n"))
                #expect(published.stdout.contains("next: summit resort get rv"))
                let fetched = try await cli.ok("resort", "get", "rv", "--json")
                #expect(fetched.json["identity"]["dataset_version"].string == v2.datasetVersion)
                #expect(fetched.json["verified"].bool == true && fetched.json["rendezvous_points"].int == 2)
            }
        }
    }

    @Test func buildsAreByteIdenticalAcrossRunsAndProcesses() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let first = folder.appendingPathComponent("a.json")
                let second = folder.appendingPathComponent("b.json")
                try await cli.ok("resort", "synth", "--seed", "5", "--size", "2", "--out", first.path)
                try await cli.ok("resort", "synth", "--seed", "5", "--size", "2", "--out", second.path)
                #expect(try Data(contentsOf: first) == Data(contentsOf: second), "the generator is deterministic")

                try await cli.ok("resort", "ingest", "det", "--osm", first.path, "--snapshot-date", "2026-02-01")
                try await cli.ok("resort", "review", "det", "--accept", "all", "--sample", "20")
                try await cli.ok("resort", "apply", "det")
                // Two processes build the same manifest from the same snapshot.
                let dryA = try await cli.ok("resort", "build", "det", "--dry-run", "--json")
                let dryB = try await cli.ok("resort", "build", "det", "--dry-run", "--json")
                let a = try identity(dryA.json["identity"])
                let b = try identity(dryB.json["identity"])
                #expect(a == b)
                #expect(dryA.json["identity"]["blob_sha256"].string == dryB.json["identity"]["blob_sha256"].string)
                #expect(try await cli.scalar("select count(*) from mountain.resort_graph_blob", as: Int.self) == 0,
                        "a dry run stores nothing")
                // The stored build is that same identity.
                let stored = try await cli.ok("resort", "build", "det", "--json")
                #expect(try identity(stored.json["identity"]) == a)
                #expect(try await cli.scalar("select blob_sha256 from mountain.resort_graph_blob", as: String.self)
                    == dryA.json["identity"]["blob_sha256"].string)
            }
        }
    }

    /// An extract with arrays nested 100,000 deep (the reader used to overflow its
    /// stack at about 8,000) is refused with the limit and what to do; nothing is stored.
    @Test func anExtractNestedTooDeepIsRefusedWithTheLimit() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let extract = folder.appendingPathComponent("deep.json")
                let head = #"{"osm3s":{"timestamp_osm_base":"2025-01-19T21:21:36Z"},"elements":["#
                try Data((head + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]}").utf8)
                    .write(to: extract)
                let refused = try await cli.fails("resort", "ingest", "deep", "--osm", extract.path)
                #expect(refused.status == 1)
                #expect(refused.stderr.contains("deep.json is not a readable OSM extract"), "\(refused.stderr)")
                #expect(refused.stderr.contains("invalid JSON at byte \(head.utf8.count + 510): arrays and objects nest more than 512 levels deep"),
                        "\(refused.stderr)")
                #expect(refused.stderr.contains("flatten its nesting"), "\(refused.stderr)")
                #expect(try await cli.scalar("select count(*) from mountain.resorts", as: Int.self) == 0)
            }
        }
    }

    struct Identity: Equatable {
        var sha: String
        var datasetVersion: String
        var fingerprint: String
        var nodes: Int
    }

    func identity(_ json: JSONValue) throws -> Identity {
        let sha = try #require(json["content_sha256"].string)
        #expect(sha.count == 64)
        return Identity(sha: sha, datasetVersion: try #require(json["dataset_version"].string),
                        fingerprint: try #require(json["fingerprint"].string), nodes: try #require(json["node_count"].int))
    }
}
