import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// PowderMeet's meets through the real `summit` binary: the demo end to end,
/// strict plans, meet requests from send to recovery, and the picture.
@Suite(.serialized) struct MeetCLITests {
    @Test func theDemoPublishesPlansSendsAcceptsAndDraws() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let demo = try await cli.ok("demo", "--out", folder.path)
                #expect(demo.stdout.contains("1. "), "the ranked plan is printed")
                #expect(demo.stdout.contains("accepted by bob after re-validating both routes"))
                #expect(demo.stderr.contains("published demo-7 m1-v15-"))
                let svg = try String(contentsOf: folder.appendingPathComponent("meet.svg"), encoding: .utf8)
                #expect(svg.hasPrefix("<svg") && svg.contains("#ff6a00") && svg.contains("#b000ff"), "both routes are drawn")
                let geojson = try JSONValue(parsing: String(contentsOf: folder.appendingPathComponent("meet.geojson"), encoding: .utf8))
                let layers = geojson["features"].array.compactMap { $0["properties"]["layer"].string }
                #expect(layers.filter { $0 == "route" }.count == 2 && layers.contains("meeting_point") && layers.contains("resort"))

                // The stored meet: accepted, exact identity, both routes and their uncertainty.
                #expect(try await cli.scalar("""
                    select count(*) from meet.meet_requests
                    where status = 'accepted' and dataset_version like 'm1-v15-%' and cardinality(sender_path_edge_ids) > 1
                      and cardinality(receiver_path_edge_ids) > 1 and sender_eta_std_seconds > 0 and receiver_eta_std_seconds > 0
                    """, as: Int.self) == 1)
                // Both friends shared routing-grade positions through the relay's RPC.
                #expect(try await cli.scalar("select count(*) from meet.live_presence where resort_id = 'demo-7'", as: Int.self) == 2)

                // Running it again reuses everything published and plans again.
                let again = try await cli.ok("demo", "--out", folder.path)
                #expect(again.stdout.contains("accepted by bob"))
                #expect(try await cli.scalar("select count(*) from mountain.resort_canonical_publication", as: Int.self) == 1)
            }
        }
    }

    @Test func plansAreStrictDeterministicAndSayWhy() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("demo", "--out", folder.path)
                let at = try await cli.scalar("select to_char(summit.now() at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')", as: String.self)
                // From the live positions: the plan the demo sent.
                let live = try await cli.ok("meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--at", at, "--json")
                #expect(live.json["options"].array.count >= 2)
                // The solve's own time is printed beside the plan, in milliseconds.
                guard case .number(let solveMs) = live.json["solve_ms"] else {
                    Issue.record("no solve_ms in \(live.stdout)")
                    return
                }
                #expect(solveMs >= 0)
                let text = try await cli.ok("meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--at", at)
                let solvedLine = text.stdout.split(separator: "\n").first { $0.hasPrefix("solved in ") }
                let printedMs = try #require(solvedLine.flatMap { Double($0.dropFirst("solved in ".count).dropLast(" ms".count)) },
                                             "\(text.stdout)")
                #expect(printedMs >= 0)
                let best = live.json["options"][0]
                #expect(best["routes"].array.count == 2)
                #expect(best["routes"][1]["origin"].string?.hasPrefix("edge:") == true, "bob's directed start is kept")
                // Two processes, the same inputs: byte-identical answers.
                let start = try #require(best["routes"][0]["origin"].string.map { String($0.dropFirst("node:".count)) })
                let words = ["meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--at", at, "--start", start,
                             "--friend-start", start, "--json"]
                let first = try await cli.run(words), second = try await cli.run(words)
                #expect(first.status == 0 && first.stdoutWithoutSolveTime == second.stdoutWithoutSolveTime)
                #expect(first.stdoutWithoutSolveTime != first.stdout, "only the solve time is left out")

                // An hour and a half later the status sidecar has expired: no live meet, and why.
                let later = try await cli.scalar("select to_char((summit.now() + interval '90 minutes') at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')",
                                                 as: String.self)
                let expired = try await cli.run(["meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--at", later, "--json"])
                #expect(expired.status == 3)
                #expect(expired.json["failure"]["code"].string == "operationalStatusUnavailable")
                #expect(expired.json["solve_ms"] == .null, "refused before the solver ran: no solve time")
                // Two minutes later the positions are no longer routing-grade.
                let soon = try await cli.scalar("select to_char((summit.now() + interval '2 minutes') at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')",
                                                as: String.self)
                let stale = try await cli.run(["meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--at", soon])
                #expect(stale.status == 3 && stale.stdout.contains("startUnresolved") && stale.stdout.contains("s old"))

                // Bad input is refused before anything happens, saying how to write it.
                let garbage = try await cli.fails("meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--start", "somewhere")
                #expect(garbage.stderr.contains("t45@0.25"))
                let noResort = try await cli.fails("meet", "plan", "--resort", "nowhere", "--as", "ann", "--friend", "bob")
                #expect(noResort.stderr.contains("no published canonical dataset"))
            }
        }
    }

    @Test func aMeetGoesFromSendToEndAndRecoveryHonoursTheEnd() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("demo", "--out", folder.path)
                try await cli.ok("users", "add", "cat")
                // A stranger cannot send.
                let stranger = try await cli.fails("meet", "send", "--resort", "demo-7", "--as", "cat", "--friend", "ann",
                                                   "--start", "46.0,7.0", "--friend-start", "46.0,7.0")
                #expect(stranger.stderr.contains("not_friends") || stranger.stderr.contains("no meet request was sent"))

                let sent = try await cli.ok("meet", "send", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--json")
                let id = try #require(sent.json["request"]["id"].string)
                #expect(sent.json["request"]["status"].string == "pending")
                // Only the receiver accepts.
                let wrong = try await cli.fails("meet", "accept", id, "--as", "ann")
                #expect(wrong.stderr.contains("only the receiver accepts"))
                let accepted = try await cli.ok("meet", "accept", id, "--as", "bob", "--json")
                #expect(accepted.json["status"].string == "accepted")
                #expect(accepted.json["mine"]["edge_ids"].array.count > 0)

                // Recovery restores the newest accepted meet; once ann ends it, it is hers no more.
                let recovered = try await cli.ok("meet", "recover", "--as", "ann", "--json")
                #expect(recovered.json["recovered"]["request"].string == id)
                let ended = try await cli.ok("meet", "end", id, "--as", "ann", "--json")
                #expect(ended.json["status"].string == "expired")
                #expect(try await cli.scalar("select count(*) from meet.end_intents", as: Int.self) == 0,
                        "the end intent goes with the end")
                let after = try await cli.ok("meet", "recover", "--as", "ann", "--json")
                #expect(after.json["recovered"]["request"].string != id)

                // An end intent saved but not yet delivered is retried first and wins over recovery.
                let newest = try #require(try await cli.ok("meet", "list", "--as", "ann", "--json").json.array
                    .first { $0["status"].string == "accepted" }?["id"].string)
                try await cli.execute("""
                    insert into meet.end_intents (user_id, request_id, created_at)
                    select p.id, \(UUID(uuidString: newest)!), now() from social.profiles p where p.username = 'ann'
                    """)
                let retried = try await cli.ok("meet", "recover", "--as", "ann", "--json")
                #expect(retried.json["ended_again"].array.compactMap(\.string) == [newest])
                #expect(retried.json["recovered"]["request"].string != newest)
                #expect(try await cli.scalar("select status from meet.meet_requests where id = \(UUID(uuidString: newest)!)", as: String.self) == "expired")
            }
        }
    }
}
