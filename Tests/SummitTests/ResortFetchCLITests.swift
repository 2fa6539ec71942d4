import Digest
import Foundation
import MountainGraph
import Postgres
import SummitTestSupport
import Testing

/// `summit resort fetch` through the real binary against an Overpass stand-in
/// on loopback serving the shared extracts: the answer is stored exactly as
/// an ingest of the same file stores it and review runs on it; the same
/// content again stores nothing; each broken answer (busy for good, no
/// answer in time, cut short, a runtime-error remark, another area) is
/// refused with what happened and nothing written.
@Suite(.serialized) struct ResortFetchCLITests {
    static let catalog = CLIHarness.sharedActivity("../resorts/catalog.json").standardizedFileURL
    static let okemo = SharedOSMData.folder.appendingPathComponent("okemo-vt-2024-09-21.ski.osm.json")
    static let mammoth = SharedOSMData.folder.appendingPathComponent("mammoth-ca-2023-06.ski.osm.json")
    static let andorra = SharedOSMData.folder.appendingPathComponent("andorra-2025-01-19.ski.osm.json")
    static let dem = SharedOSMData.folder.appendingPathComponent("dem")

    static let present = SharedOSMData.isPresent && FileManager.default.fileExists(atPath: catalog.path)
    static let absent: Comment = "the shared data (../shared/data/osm and ../shared/data/resorts/catalog.json) is absent"

    /// The resort's catalog box as the query writes it, S,W,N,E, read from the shared catalog.
    static func catalogBox(_ id: String) throws -> String {
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: catalog)) as? [[String: Any]])
        let entry = try #require(entries.first { $0["id"] as? String == id }, "\(id) is not in the shared catalog")
        let box = try #require(entry["bbox"] as? [String: Double])
        return ["lat_min", "lon_min", "lat_max", "lon_max"].map { "\(box[$0]!)" }.joined(separator: ",")
    }

    static func bytes(_ file: URL) throws -> [UInt8] { Array(try Data(contentsOf: file)) }

    /// What fetch may have written: snapshots, elevation files, drafts.
    static func stored(_ cli: CLIHarness) async throws -> [Int] {
        [
            try await cli.scalar("select count(*)::int from mountain.osm_snapshots", as: Int.self),
            try await cli.scalar("select count(*)::int from mountain.elevation_snapshots", as: Int.self),
            try await cli.scalar("select count(*)::int from mountain.manifest_drafts", as: Int.self),
        ]
    }

    @Test(.enabled(if: present, absent))
    func theAnswerIsStoredAsIngestStoresItAndTheSameContentAgainStoresNothing() async throws {
        let okemo = try Self.bytes(Self.okemo)
        let box = try Self.catalogBox("okemo")
        let standIn = try OverpassStandIn(box: box, script: [OverpassStandIn.answer(okemo)])
        defer { standIn.stop() }
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("resort", "catalog", "import", Self.catalog.path)
            let printed = try await cli.ok("resort", "fetch", "okemo", "--print-query").stdout
            #expect(printed.hasPrefix("[out:json][timeout:270][maxsize:134217728];") && printed.contains("way[\"piste:type\"](\(box));")
                    && printed.contains("(._; >;);\nout body;"), "\(printed)")
            #expect(standIn.queries.isEmpty, "--print-query asks nothing")

            let fetched = try await cli.ok("resort", "fetch", "okemo", "--overpass", standIn.url, "--assume-flat", "--json")
            let json = fetched.json
            #expect(json["status"].string == "stored" && json["attempts"].int == 1 && json["snapshot_date"].string == "2024-09-21")
            #expect(json["sha256"].string == SHA256.hex(okemo) && json["answer_bytes"].int == okemo.count)
            #expect(json["nodes"].int == 2237 && json["ways"].int == 208 && json["relations"].int == 8, "SOURCES.md's counts of the file")
            #expect(json["ingest"]["snapshot_stored"].bool == true && json["ingest"]["draft_revision"].int == 1)
            #expect(fetched.stderr.contains("asking \(standIn.url) for the ski features of \(box)…"), "\(fetched.stderr)")
            #expect(standIn.queries.count == 1 && standIn.queries[0] == printed.trimmingCharacters(in: .newlines),
                    "the query asked is the one --print-query shows")
            let stored = try await cli.scalar("select encode(bytes, 'hex') from mountain.osm_snapshots where resort_id = 'okemo'", as: String.self)
            #expect(stored == okemo.map { String(format: "%02x", $0) }.joined(), "stored byte for byte as answered")
            #expect(try await cli.scalar("select elevation_policy from mountain.osm_snapshots", as: String.self) == "assume_flat")
            #expect(try await cli.scalar("select to_char(snapshot_date, 'YYYY-MM-DD') from mountain.resort_snapshot_pins where resort_id = 'okemo'",
                                         as: String.self) == "2024-09-21")

            // The normal review path follows.
            let review = try await cli.ok("resort", "review", "okemo", "--sample", "0")
            #expect(review.stdout.contains("next: summit resort "), "\(review.stdout)")

            // An ingest of the same file keeps the identical snapshot and drafts the same manifest.
            let ingested = try await cli.ok("resort", "ingest", "okemo", "--osm", Self.okemo.path, "--assume-flat", "--json").json
            #expect(ingested["snapshot_stored"].bool == false && ingested["draft_revision"].int == 2)
            #expect(try await cli.scalar("""
                select (select document from mountain.manifest_drafts where resort_id = 'okemo' and revision = 1)
                     = (select document from mountain.manifest_drafts where resort_id = 'okemo' and revision = 2)
                """, as: Bool.self))

            // The same nodes and ways, even under a later data date, store nothing: no snapshot, no draft.
            let later = Array(String(decoding: okemo, as: UTF8.self)
                .replacingOccurrences(of: "2024-09-21T20:46:28Z", with: "2024-09-23T06:00:00Z").utf8)
            let relabelled = try OverpassStandIn(box: box, script: [OverpassStandIn.answer(later)])
            defer { relabelled.stop() }
            for url in [standIn.url, relabelled.url] {
                let again = try await cli.ok("resort", "fetch", "okemo", "--overpass", url, "--assume-flat")
                #expect(again.stdout.contains("unchanged: snapshot 2024-09-21 of okemo already holds these nodes and ways"), "\(again.stdout)")
                #expect(again.stdout.contains("next: summit resort review okemo"))
            }
            #expect(try await Self.stored(cli) == [1, 0, 2])

            // Other content under the stored date is refused: snapshots never change.
            var edited = String(decoding: okemo, as: UTF8.self)
            edited.replaceSubrange(try #require(edited.range(of: #""piste:type":"downhill""#)), with: #""piste:type":"nordic""#)
            let changed = try OverpassStandIn(box: box, script: [OverpassStandIn.answer(Array(edited.utf8))])
            defer { changed.stop() }
            let refused = try await cli.fails("resort", "fetch", "okemo", "--overpass", changed.url, "--assume-flat")
            #expect(refused.stderr.contains("okemo already has a snapshot dated 2024-09-21 with other nodes or ways")
                    && refused.stderr.contains("snapshots never change, so nothing was stored"), "\(refused.stderr)")
            #expect(try await Self.stored(cli) == [1, 0, 2])
        }
    }

    @Test(.enabled(if: present, absent))
    func aBusyServerIsWaitedForAsItAsksAndAskedAgain() async throws {
        let standIn = try OverpassStandIn(box: try Self.catalogBox("okemo"),
                                          script: [OverpassStandIn.busy(retryAfter: 1), OverpassStandIn.busy(503, retryAfter: 1),
                                                   OverpassStandIn.answer(try Self.bytes(Self.okemo))])
        defer { standIn.stop() }
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("resort", "catalog", "import", Self.catalog.path)
            let started = ContinuousClock.now
            let fetched = try await cli.ok("resort", "fetch", "okemo", "--overpass", standIn.url, "--assume-flat", "--json")
            #expect(ContinuousClock.now - started >= .seconds(2), "two waits of Retry-After: 1")
            #expect(fetched.json["attempts"].int == 3 && fetched.json["status"].string == "stored")
            #expect(fetched.stderr.contains("answered 429 (Too Many Requests); waiting 1 s before attempt 2 of 4"), "\(fetched.stderr)")
            #expect(fetched.stderr.contains("answered 503 (Service Unavailable); waiting 1 s before attempt 3 of 4"))
            #expect(standIn.queries.count == 3)
            #expect(try await Self.stored(cli) == [1, 0, 1])
        }
    }

    @Test(.enabled(if: present, absent))
    func eachBrokenAnswerIsRefusedWithNothingWritten() async throws {
        let okemo = try Self.bytes(Self.okemo)
        let box = try Self.catalogBox("okemo")
        let remark = "runtime error: Query timed out in \"recurse\" at line 14 after 2 seconds."
        let cases: [(name: String, script: [LoopbackHTTPServer.Reply], options: [String], says: [String], requests: Int)] = [
            ("busy for good", [OverpassStandIn.busy(retryAfter: 1)], ["--retries", "2"],
             ["answered 429 (Too Many Requests) to all 3 attempts; nothing was stored", "try again later"], 3),
            ("no answer in time", [OverpassStandIn.hang], ["--timeout", "2"],
             ["did not answer within the 2 s it may take (--timeout)", "nothing was stored", "allow longer with --timeout"], 1),
            ("cut short", [OverpassStandIn.truncated(okemo, fraction: 0.6)], [],
             ["stops short after \(Int(Double(okemo.count) * 0.6)) bytes", "broke off mid-answer; nothing was stored"], 1),
            ("a runtime-error remark", [OverpassStandIn.withRemark(okemo, remark)], [],
             ["Overpass reports \"\(remark)\": its answer is incomplete; nothing was stored", "try again when it is less busy"], 1),
            ("another area", [OverpassStandIn.answer(try Self.bytes(Self.mammoth))], [],
             ["is not for the box \(box): 200 ways", "lie more than 0.05° outside it"], 1),
        ]
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("resort", "catalog", "import", Self.catalog.path)
            let resorts = try await cli.scalar("select md5(string_agg(r::text, '|' order by id)) from mountain.resorts r", as: String.self)
            for item in cases {
                let standIn = try OverpassStandIn(box: box, script: item.script)
                defer { standIn.stop() }
                let started = ContinuousClock.now
                let refused = try await cli.fails(["resort", "fetch", "okemo", "--overpass", standIn.url, "--assume-flat"] + item.options)
                for words in item.says {
                    #expect(refused.stderr.contains(words), "\(item.name): \(refused.stderr)")
                }
                #expect(standIn.queries.count == item.requests, "\(item.name)")
                #expect(ContinuousClock.now - started < .seconds(20), "\(item.name) took too long")
                #expect(try await Self.stored(cli) == [0, 0, 0], "\(item.name) wrote something")
            }
            #expect(try await cli.scalar("select md5(string_agg(r::text, '|' order by id)) from mountain.resorts r", as: String.self) == resorts)
        }
    }

    @Test(.enabled(if: present, absent))
    func aResortOutsideTheCatalogIsRefusedNamingTheImport() async throws {
        let standIn = try OverpassStandIn(box: try Self.catalogBox("okemo"), script: [OverpassStandIn.answer(try Self.bytes(Self.okemo))])
        defer { standIn.stop() }
        try await CLIHarness.withFreshDatabase { cli in
            let refused = try await cli.fails("resort", "fetch", "okemo", "--overpass", standIn.url, "--assume-flat")
            #expect(refused.stderr.contains("\"okemo\" is not in the resort catalog") && refused.stderr.contains("summit resort catalog import FILE"),
                    "\(refused.stderr)")
            let neither = try await cli.run(["resort", "fetch", "okemo", "--overpass", standIn.url])
            #expect(neither.status == 2 && neither.stderr.contains("needs either --dem-dir DIR (elevation from SRTM tiles) or --assume-flat"))
            let both = try await cli.run(["resort", "fetch", "okemo", "--overpass", standIn.url, "--assume-flat", "--dem-dir", Self.dem.path])
            #expect(both.status == 2 && both.stderr.contains("needs either --dem-dir DIR"))
            #expect(standIn.queries.isEmpty)
        }
    }

    /// Grandvalira's catalog box lies inside N42E001; the stand-in answers the Andorra extract cut to the box it is asked for.
    @Test(.enabled(if: present, absent))
    func demDirStoresTheTilesOfTheBoxAndNamesAMissingOne() async throws {
        let box = try Self.catalogBox("grandvalira")
        let parts = box.split(separator: ",").map { Double($0)! }
        let andorra = try OSMData(overpassJSON: try Self.bytes(Self.andorra))
        let cut = andorra.cut(to: try OSMBoundingBox(south: parts[0], west: parts[1], north: parts[2], east: parts[3]))
        let answer = cut.overpassJSON(OverpassDocumentHeader(generator: "Overpass stand-in", timestampOSMBase: "2025-01-19T21:21:36Z",
                                                             note: "the Andorra extract cut to \(box)", sources: [], bbox: nil))
        let standIn = try OverpassStandIn(box: box, script: [OverpassStandIn.answer(answer)])
        defer { standIn.stop() }
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("resort", "catalog", "import", Self.catalog.path)
            let fetched = try await cli.ok("resort", "fetch", "grandvalira", "--overpass", standIn.url, "--dem-dir", Self.dem.path, "--json")
            #expect(fetched.json["elevation_files"].array.compactMap(\.string) == ["N42E001.hgt.zip"] && fetched.json["elevation_policy"].string == "fail")
            #expect(fetched.json["snapshot_date"].string == "2025-01-19" && (fetched.json["lifts"].int ?? 0) > 20, "\(fetched.stdout)")
            #expect(try await cli.scalar("select file_name || ' ' || sha256 from mountain.elevation_snapshots where resort_id = 'grandvalira'",
                                         as: String.self) == "N42E001.hgt.zip " + SHA256.hex(try Self.bytes(Self.dem.appendingPathComponent("N42E001.hgt.zip"))))
            // Built with elevation from the tile: no way was left without one.
            #expect(try await cli.ok("resort", "review", "grandvalira", "--sample", "0").status == 0)

            // A box across 2°E needs N42E002 as well, which the folder lacks: named, and Overpass is not asked.
            try await withTemporaryFolder { folder in
                let file = folder.appendingPathComponent("catalog.json")
                try Data("""
                    [{"id": "cerdanya-edge", "name": "Cerdanya Edge", "bbox": {"lat_min": 42.40, "lon_min": 1.95, "lat_max": 42.50, "lon_max": 2.05},
                      "center": {"lat": 42.45, "lon": 2.0}}]
                    """.utf8).write(to: file)
                try await cli.ok("resort", "catalog", "import", file.path)
            }
            let missing = try await cli.fails("resort", "fetch", "cerdanya-edge", "--overpass", standIn.url, "--dem-dir", Self.dem.path)
            #expect(missing.stderr.contains("has no N42E002.hgt.zip (or N42E002.hgt), the SRTM tile of lat 42 to 43, lon 2 to 3")
                    && missing.stderr.contains("it needs N42E001, N42E002") && missing.stderr.contains("--assume-flat"), "\(missing.stderr)")
            #expect(standIn.queries.count == 1, "only grandvalira's fetch asked")
            #expect(try await cli.scalar("select count(*)::int from mountain.osm_snapshots where resort_id = 'cerdanya-edge'", as: Int.self) == 0)
        }
    }
}
