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
                #expect(reviewed.stdout.contains("lift tops reaching a run"))
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

    @Test func buildsAreByteIdenticalAcrossRunsAndProcesses() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let first = folder.appendingPathComponent("a.json")
                let second = folder.appendingPathComponent("b.json")
                try await cli.ok("resort", "synth", "--seed", "5", "--size", "2", "--out", first.path)
                try await cli.ok("resort", "synth", "--seed", "5", "--size", "2", "--out", second.path)
                #expect(try Data(contentsOf: first) == Data(contentsOf: second), "the generator is deterministic")

                try await cli.ok("resort", "ingest", "det", "--osm", first.path, "--snapshot-date", "2026-02-01")
                try await cli.ok("resort", "review", "det", "--accept-connectors", "all")
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
