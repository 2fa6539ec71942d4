import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// `summit phone`: simulated phones that keep their data between commands and sync with the server.
@Suite(.serialized) struct PhoneCLITests {
    /// The harness, with phones kept in a folder of their own.
    private func withPhones(_ body: (CLIHarness) async throws -> Void) async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                var cli = cli
                cli.home = folder
                try await body(cli)
            }
        }
    }

    @Test func aMomentLoggedOfflineOnOnePhoneReachesTheOtherAfterBothSync() async throws {
        try await withPhones { cli in
            try await cli.ok("users", "add", "ann")
            try await cli.ok("phone", "--as", "ann", "--device", "ann-1", "start-shelf")
            try await cli.ok("phone", "--as", "ann", "--device", "ann-1", "offline")
            let logged = try await cli.ok("phone", "--as", "ann", "--device", "ann-1", "log", "small-joys", "24",
                                          "--title", "Tea on the step", "--place", "home", "--json")
            let moment = try #require(logged.json["moment"].uuid)
            let status = try await cli.ok("phone", "status", "--as", "ann", "--device", "ann-1", "--json")
            #expect(status.json["online"].bool == false)
            #expect(status.json["queue"].array.map { $0["table"].string } == ["user_grids", "user_grids", "user_grids", "user_grids",
                                                                             "user_grids", "user_grids", "moments"])
            // Offline, a sync says so and what to do.
            let refused = try await cli.fails("phone", "--as", "ann", "--device", "ann-1", "sync")
            #expect(refused.stderr.contains("offline") && refused.stderr.contains("online"))
            #expect(try await cli.scalar("select count(*) from grids.moments where id = \(moment)", as: Int.self) == 0)

            try await cli.ok("phone", "--as", "ann", "--device", "ann-1", "online")
            let synced = try await cli.ok("phone", "--as", "ann", "--device", "ann-1", "sync", "--json")
            #expect(synced.json["pushed"]["applied"].int == 7)
            #expect(try await cli.scalar("select place from grids.moments where id = \(moment)", as: String.self) == "home")

            try await cli.ok("phone", "sync", "--as", "ann", "--device", "ann-2")
            let board = try await cli.ok("phone", "--as", "ann", "--device", "ann-2", "board", "small-joys", "--json")
            let squares = board.json["squares"].array
            #expect(squares[24]["state"].string == "done" && squares[24]["moment"].uuid == moment)
            #expect(squares.filter { $0["state"].string == "revealed" }.map { $0["position"].int } == [17, 23, 25, 31])
            let drawn = try await cli.ok("phone", "--as", "ann", "--device", "ann-2", "board", "small-joys")
            #expect(drawn.stdout.contains("Tea on the step"))

            // Edited on one phone, deleted on the other, after syncs both agree it is gone.
            try await cli.ok("phone", "--as", "ann", "--device", "ann-2", "edit", String(moment.uuidString.prefix(8)), "--title", "Tea")
            try await cli.ok("phone", "--as", "ann", "--device", "ann-1", "delete", moment.uuidString)
            for device in ["ann-2", "ann-1", "ann-2"] { try await cli.ok("phone", "--as", "ann", "--device", device, "sync") }
            #expect(try await cli.scalar("select deleted from grids.moments where id = \(moment)", as: Bool.self))
            let after = try await cli.ok("phone", "--as", "ann", "--device", "ann-2", "board", "small-joys", "--json")
            #expect(after.json["squares"][24]["state"].string == "revealed")
        }
    }

    @Test func aPhoneBelongsToOnePersonUntilItSignsOutAndMistakesSayWhatToDo() async throws {
        try await withPhones { cli in
            for name in ["ann", "bob"] { try await cli.ok("users", "add", name) }
            try await cli.ok("phone", "--as", "ann", "--device", "shared", "add-grid", "close-to-home")
            let hidden = try await cli.fails("phone", "--as", "ann", "--device", "shared", "log", "close-to-home", "0", "--title", "Too far")
            #expect(hidden.stderr.contains("still hidden"))
            let taken = try await cli.fails("phone", "--as", "bob", "--device", "shared", "shelf")
            #expect(taken.stderr.contains("sign-out"))
            let unknown = try await cli.fails("phone", "--as", "ann", "--device", "shared", "juggle")
            #expect(unknown.stderr.contains("juggle"))
            let badDevice = try await cli.fails("phone", "--as", "ann", "--device", "../etc", "shelf")
            #expect(badDevice.stderr.contains("device name"))

            try await cli.ok("phone", "sign-out", "--device", "shared")
            #expect(try await cli.scalar("""
                select count(*) from grids.user_grids u join social.profiles p on p.id = u.user_id where p.username = 'ann'
                """, as: Int.self) == 1, "the last push on the way out")
            let shelf = try await cli.ok("phone", "--as", "bob", "--device", "shared", "shelf", "--json")
            #expect(shelf.json.array.isEmpty)
            let help = try await cli.ok("phone", "log", "--help")
            #expect(help.stdout.contains("--title") && help.stdout.contains("POSITION"))
        }
    }
}
