import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// `summit status refresh` through the real binary: names mapped onto the
/// active dataset's stable edge ids, every kind of bad feed refused with the
/// previous status left in place, ambiguous names reported and skipped, and
/// planning refusing an expired or mismatched status.
@Suite(.serialized) struct StatusFeedCLITests {
    /// The newest status row of a resort, as text: what a failed refresh must not change.
    static func newestStatus(_ cli: CLIHarness, _ resort: String) async throws -> String {
        try await cli.scalar("""
            select observed_at::text || ' ' || expires_at::text || ' ' || source || ' ' || edges::text
            from mountain.resort_status where resort_id = \(resort) order by observed_at desc limit 1
            """, as: String.self)
    }

    static func time(_ cli: CLIHarness, plus minutes: Int) async throws -> String {
        try await cli.scalar("""
            select to_char((summit.now() + make_interval(mins => \(minutes))) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            """, as: String.self)
    }

    @Test func aFeedIsMappedRecordedAndBadFeedsLeaveThePreviousStatus() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("demo", "--out", folder.path)
                let server = try LoopbackHTTPServer()
                defer { server.stop() }
                server.answer("/demo-7/status.json", body: """
                    {"format": "summit-status/1", "resort_id": "demo-7", "counts": {"lifts": 3, "trails": 1},
                     "lifts": [{"name": "Lift 1-1", "status": "open", "wait_minutes": 4}, {"name": "lift 2 1", "status": "hold"},
                               {"name": "Lift 99-9", "status": "open"}],
                     "trails": [{"name": "Run 1-1a", "status": "closed"}]}
                    """)
                let refreshed = try await cli.ok("status", "refresh", "demo-7", "--from", server.url("/demo-7/status.json"), "--json")
                let report = refreshed.json
                #expect(report["format"].string == "summit")
                #expect(report["mapped"]["lift:Lift 1-1"].string == "open")
                #expect(report["mapped"]["lift:Lift 2-1"].string == "hold", "a name differing only in case and punctuation maps")
                #expect(report["mapped"]["trail:Run 1-1a"].string == "closed")
                #expect(report["omitted"].array.map { "\($0["name"].string ?? ""):\($0["reason"].string ?? "")" } == ["Lift 99-9:unknown"])
                #expect(server.requests(to: "/demo-7/status.json") == 1)
                let written = try #require(report["edges_written"].int)
                #expect(written >= 3)
                #expect(try await cli.scalar("""
                    select count(*)::int from mountain.resort_status s, jsonb_each(s.edges) e
                    where s.resort_id = 'demo-7' and s.source like 'summit: http://127.0.0.1:%'
                    """, as: Int.self) == written, "exactly the mapped identities' edges are recorded")
                #expect(try await cli.scalar("""
                    select count(*)::int from mountain.resort_status s, jsonb_each(s.edges) e
                    where s.resort_id = 'demo-7' and (e.value ->> 'wait_minutes')::float8 = 4
                    """, as: Int.self) == 1, "the wait sits on the lift's queue-entry edge only")
                #expect(try await cli.scalar("""
                    select count(*)::int from mountain.resort_feed_refreshes where resort_id = 'demo-7' and kind = 'status'
                      and last_success_at is not null and consecutive_failures = 0
                    """, as: Int.self) == 1)
                let before = try await Self.newestStatus(cli, "demo-7")

                // Every broken feed fails, says why, and leaves the status as it was.
                server.answer("/down", status: 503, body: "{}")
                let garbage = folder.appendingPathComponent("garbage.json")
                try Data("{\"format\": \"summit-status/1\", \"lifts\": [".utf8).write(to: garbage)
                let wrongDataset = folder.appendingPathComponent("wrong-dataset.json")
                try Data("""
                    {"format": "summit-status/1", "dataset_version": "m1-v15-\(String(repeating: "0", count: 64))",
                     "lifts": [{"name": "Lift 1-1", "status": "open"}]}
                    """.utf8).write(to: wrongDataset)
                let shortCount = folder.appendingPathComponent("short.json")
                try Data("""
                    {"format": "summit-status/1", "counts": {"lifts": 26, "trails": 0}, "lifts": [{"name": "Lift 1-1", "status": "open"}]}
                    """.utf8).write(to: shortCount)
                let unknownOnly = folder.appendingPathComponent("unknown.json")
                try Data("""
                    {"format": "summit-status/1", "lifts": [{"name": "Chair Nowhere", "status": "open"}]}
                    """.utf8).write(to: unknownOnly)
                let badState = folder.appendingPathComponent("bad-state.json")
                try Data("""
                    {"format": "summit-status/1", "lifts": [{"name": "Lift 1-1", "status": "spinning"}]}
                    """.utf8).write(to: badState)
                let otherResort = folder.appendingPathComponent("other.json")
                try Data("""
                    {"format": "summit-status/1", "resort_id": "vail", "lifts": [{"name": "Lift 1-1", "status": "open"}]}
                    """.utf8).write(to: otherResort)
                let stale = folder.appendingPathComponent("stale.json")
                try Data("""
                    {"format": "summit-status/1", "observed_at": "2020-01-01T09:00:00Z", "lifts": [{"name": "Lift 1-1", "status": "open"}]}
                    """.utf8).write(to: stale)
                let cases: [(String, String)] = [
                    (server.url("/down"), "HTTP 503"),
                    (server.url("/missing"), "HTTP 404"),
                    (garbage.path, "not valid JSON"),
                    (wrongDataset.path, "manifest mismatch"),
                    (shortCount.path, "count mismatch"),
                    (unknownOnly.path, "none of the feed's 1 names"),
                    (badState.path, "use open, closed, hold or scheduled"),
                    (otherResort.path, "describes resort vail"),
                    (stale.path, "expired"),
                    (folder.appendingPathComponent("absent.json").path, "cannot read the feed file"),
                ]
                for (source, reason) in cases {
                    let failed = try await cli.fails("status", "refresh", "demo-7", "--from", source)
                    #expect(failed.stderr.contains(reason), "\(source): \(failed.stderr)")
                    #expect(failed.stderr.contains("the previous status stays in place"), "\(source)")
                    #expect(try await Self.newestStatus(cli, "demo-7") == before, "\(source) must not change the status")
                }
                #expect(try await cli.scalar("""
                    select consecutive_failures from mountain.resort_feed_refreshes where resort_id = 'demo-7' and kind = 'status'
                    """, as: Int.self) == cases.count, "each failure is noted for the retry throttle")
                try await cli.fails("status", "refresh", "demo-7", "--from", "ftp://example.com/feed")
                try await cli.fails("status", "refresh", "demo-7", "--from", garbage.path, "--format", "xml")

                // The Epic terrain page: the object embedded in the page is read.
                server.answer("/terrain", body: """
                    <html><script>FR.TerrainStatusFeed = {"Lifts": [{"Name": "Lift 1-1", "Status": 0, "Type": "chair"},
                      {"Name": "Lift 6-1", "Status": 1, "WaitTimeInMinutes": 7}, {"Name": "Lift 6-2", "Status": 2}],
                      "GroomingAreas": [{"Name": "Main", "Runs": [{"Name": "Run 1-1a", "IsOpen": true, "Note": "a } in text"}]}]};
                    FR.other = {};</script></html>
                    """)
                let epic = try await cli.ok("status", "refresh", "demo-7", "--from", server.url("/terrain"), "--json").json
                #expect(epic["format"].string == "epic")
                #expect(epic["mapped"]["lift:Lift 1-1"].string == "closed")
                #expect(epic["mapped"]["lift:Lift 6-2"].string == "hold")
                #expect(epic["mapped"]["trail:Run 1-1a"].string == "open")
                #expect(try await cli.scalar("""
                    select count(*)::int from mountain.resort_status s, jsonb_each(s.edges) e
                    where s.resort_id = 'demo-7' and s.source like 'epic:%' and (e.value ->> 'wait_minutes')::float8 = 7
                    """, as: Int.self) == 1)
            }
        }
    }

    @Test func planningRefusesAnExpiredStatus() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("demo", "--out", folder.path)
                let now = try await Self.time(cli, plus: 0), expires = try await Self.time(cli, plus: 10)
                let feed = folder.appendingPathComponent("short-lived.json")
                try Data("""
                    {"format": "summit-status/1", "observed_at": "\(now)", "expires_at": "\(expires)",
                     "lifts": [{"name": "Lift 6-1", "status": "open"}]}
                    """.utf8).write(to: feed)
                try await cli.ok("status", "refresh", "demo-7", "--from", feed.path)
                let plan = ["meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--json"]
                let inside = try await cli.run(plan + ["--at", try await Self.time(cli, plus: 5)])
                #expect(inside.json["failure"]["code"].string != "operationalStatusUnavailable", "\(inside.stdout)")
                let after = try await cli.run(plan + ["--at", try await Self.time(cli, plus: 11)])
                #expect(after.status == 3)
                #expect(after.json["failure"]["code"].string == "operationalStatusUnavailable", "the feed's own expiry holds")
            }
        }
    }

    /// A synthetic resort whose two lifts differ only in case: "LIFT 1-1" and "Lift 1-1".
    @Test func anAmbiguousNameIsReportedAndSkippedAndANewDatasetNeedsItsOwnStatus() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let extract = folder.appendingPathComponent("amb.json")
                try await cli.ok("resort", "synth", "--seed", "11", "--size", "1", "--out", extract.path)
                let renamed = try String(contentsOf: extract, encoding: .utf8)
                    .replacingOccurrences(of: "\"name\":\"Lift 2-1\"", with: "\"name\":\"LIFT 1-1\"")
                #expect(renamed.contains("LIFT 1-1"))
                try Data(renamed.utf8).write(to: extract)
                try await cli.ok("resort", "ingest", "amb", "--osm", extract.path, "--snapshot-date", "2026-01-15")
                try await cli.ok("resort", "apply", "amb")
                let v1 = try #require(try await cli.ok("resort", "build", "amb", "--json").json["identity"]["content_sha256"].string)
                try await cli.ok("resort", "publish", "amb", "--manifest-version", "1", "--content-sha256", v1)

                let feed = folder.appendingPathComponent("feed.json")
                try Data("""
                    {"format": "summit-status/1", "lifts": [{"name": "lift 1 1", "status": "closed"}, {"name": "Lift 3-1", "status": "open"}],
                     "trails": [{"name": "Run 9-3d", "status": "open"}]}
                    """.utf8).write(to: feed)
                let refreshed = try await cli.ok("status", "refresh", "amb", "--from", feed.path, "--json")
                let omitted = refreshed.json["omitted"].array
                #expect(omitted.count == 1)
                #expect(omitted.first?["name"].string == "lift 1 1" && omitted.first?["reason"].string == "ambiguous")
                #expect(omitted.first?["candidates"].array.compactMap(\.string) == ["lift:LIFT 1-1", "lift:Lift 1-1"])
                #expect(refreshed.json["mapped"]["lift:Lift 3-1"].string == "open")
                #expect(try await cli.ok("status", "refresh", "amb", "--from", feed.path).stdout
                    .contains("omitted lift \"lift 1 1\": ambiguous — lift:LIFT 1-1, lift:Lift 1-1"))
                // Neither lift was guessed: no closed edge was recorded.
                #expect(try await cli.scalar("""
                    select count(*)::int from mountain.resort_status s, jsonb_each(s.edges) e
                    where s.resort_id = 'amb' and (e.value ->> 'is_open')::boolean = false
                    """, as: Int.self) == 0)

                // Manifest 2 is published: the status of manifest 1 is mismatched, and planning says so.
                try await cli.ok("users", "add", "ann")
                try await cli.ok("users", "add", "bob")
                try await cli.ok("friends", "request", "bob", "--as", "ann")
                try await cli.ok("friends", "accept", "ann", "--as", "bob")
                let plan = ["meet", "plan", "--resort", "amb", "--as", "ann", "--friend", "bob", "--start", "n1", "--friend-start", "n2", "--json"]
                #expect(try await cli.run(plan).json["failure"]["code"].string != "operationalStatusUnavailable")
                let draft = folder.appendingPathComponent("draft.json")
                try await cli.ok("resort", "review", "amb", "--out", draft.path)
                let edited = try String(contentsOf: draft, encoding: .utf8)
                let changed = edited.replacingOccurrences(of: "\"capacity\" : 1200,", with: "\"capacity\" : 1300,")
                #expect(changed != edited)
                try Data(changed.utf8).write(to: draft)
                try await cli.ok("resort", "review", "amb", "--draft", draft.path)
                try await cli.ok("resort", "apply", "amb")
                let v2 = try #require(try await cli.ok("resort", "build", "amb", "--json").json["identity"]["content_sha256"].string)
                #expect(v2 != v1)
                try await cli.ok("resort", "publish", "amb", "--manifest-version", "2", "--content-sha256", v2)
                let mismatched = try await cli.run(plan)
                #expect(mismatched.status == 3)
                #expect(mismatched.json["failure"]["code"].string == "operationalStatusUnavailable")
                try await cli.execute("select mountain.set_feed_source('amb', 'status', \(feed.path))")
                #expect(try await cli.scalar("select reason from mountain.due_feed_refreshes('status') where resort_id = 'amb'",
                                             as: String.self) == "no status for the active dataset")
                // The scheduler's job refreshes it for the new dataset.
                let once = try await cli.ok("worker", "--once", "--json")
                #expect(once.json["jobs"]["status-refresh"].string?.contains("amb (no status for the active dataset)") == true, "\(once.stdout)")
                #expect(try await cli.run(plan).json["failure"]["code"].string != "operationalStatusUnavailable")
            }
        }
    }
}
