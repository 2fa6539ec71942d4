import Foundation
import Postgres
import Summit
import Testing

/// `summit grids` and `summit admin` against a real server.
@Suite(.serialized) struct GridsCLITests {
    @Test func makingAGridPutsYourPromptsInTheCentreAndSuggestsTheRest() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("users", "add", "ann")
            let made = try await cli.ok("grids", "make", "--as", "ann", "--title", "Rainy days", "--theme", "calm",
                                        "--prompt", "Watch the rain for a while", "--prompt", "Make a paper boat for a puddle",
                                        "--add", "--json")
            let grid = try #require(made.json["grid"]["id"].uuid)
            #expect(try await cli.scalar("select prompt from grids.grid_squares where grid_id = \(grid) and position = 24",
                                         as: String.self) == "Watch the rain for a while")
            #expect(try await cli.scalar("select prompt from grids.grid_squares where grid_id = \(grid) and position = 17",
                                         as: String.self) == "Make a paper boat for a puddle")
            // The other 47 squares are different prompts from the bank.
            #expect(try await cli.scalar("""
                select count(distinct s.prompt) from grids.grid_squares s join grids.prompts p on p.text = s.prompt
                where s.grid_id = \(grid)
                """, as: Int.self) == 47)
            let shelf = try await cli.ok("grids", "board", "--as", "ann", "--json")
            #expect(shelf.json[0]["grid_id"].uuid == grid)
        }
    }

    @Test func oneUserCannotActOnAnothersGridsOrBoards() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob"] { try await cli.ok("users", "add", name) }
            let made = try await cli.ok("grids", "make", "--as", "ann", "--title", "Mine", "--theme", "food", "--json")
            let grid = try #require(made.json["grid"]["id"].string)
            let added = try await cli.ok("grids", "add", grid, "--as", "ann", "--json")
            let board = try #require(added.json[0]["row"]["id"].string)

            // bob can neither share ann's grid, nor use it while it is unshared, nor see her private board.
            try await cli.fails("grids", "share", grid, "--as", "bob")
            #expect(try await cli.scalar("select shared from grids.grids where id = \(UUID(uuidString: grid)!)", as: Bool.self) == false)
            let refused = try await cli.fails("grids", "add", grid, "--as", "bob")
            #expect(refused.stderr.contains("cannot put that grid on their shelf"))
            try await cli.fails("grids", "board", board, "--as", "bob")
            try await cli.fails("grids", "copy", grid, "--as", "bob")
            let bobsBoards = try await cli.scalar(
                "select count(*) from grids.user_grids u join social.profiles p on p.id = u.user_id where p.username = 'bob'",
                as: Int.self)
            #expect(bobsBoards == 0)

            // Once ann shares it, bob finds it in the Atlas and may add it and copy it.
            try await cli.ok("grids", "share", grid, "--as", "ann")
            #expect(try await cli.ok("grids", "atlas", "search", "mine", "--as", "bob").stdout.contains(grid))
            try await cli.ok("grids", "add", grid, "--as", "bob")
            let copy = try await cli.ok("grids", "copy", grid, "--as", "bob", "--title", "Bob's version", "--json")
            #expect(copy.json["grid"]["source_grid_id"].string == grid)
            #expect(copy.json["grid"]["owner_id"].string != made.json["grid"]["owner_id"].string)
            // ...but still not see ann's private board.
            try await cli.fails("grids", "board", board, "--as", "bob")
        }
    }

    @Test func aStarterGridGoesOnTheShelfWithItsCentreRevealed() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob"] { try await cli.ok("users", "add", name) }
            try await cli.ok("friends", "request", "bob", "--as", "ann")
            try await cli.ok("friends", "accept", "ann", "--as", "bob")
            let added = try await cli.ok("grids", "add", "small-joys", "--as", "ann", "--audience", "friends", "--json")
            let board = try #require(added.json[0]["row"]["id"].string)
            let own = try await cli.ok("grids", "board", board, "--as", "ann", "--json")
            #expect(own.json["squares"].array.count == 49)
            #expect(own.json["squares"].array.filter { $0["state"].string == "revealed" }.map { $0["position"].int } == [24])
            // A friend sees a Friends board; a stranger doesn't.
            try await cli.ok("users", "add", "cat")
            #expect(try await cli.ok("grids", "board", board, "--as", "bob").stdout.contains("Small joys"))
            try await cli.fails("grids", "board", board, "--as", "cat")
            try await cli.fails("grids", "add", "no-such-grid", "--as", "ann")
        }
    }

    @Test func adminsModerateAndOthersCannot() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob", "ada"] { try await cli.ok("users", "add", name) }
            let made = try await cli.ok("grids", "make", "--as", "ann", "--title", "Loud", "--theme", "people",
                                        "--share", "--json")
            let grid = try #require(made.json["grid"]["id"].uuid)
            let bob = try await cli.scalar("select id from social.profiles where username = 'bob'", as: UUID.self)
            // bob reports it the way the app does (the CLI has no report command).
            try await PostgresConnection.withConnection(cli.database) { connection in
                try await connection.acting(as: .user(bob)) { connection in
                    _ = try await connection.query("select social.report('grid', \(grid), 'spam', 'junk')")
                }
            }
            let queue = try await cli.ok("admin", "reports", "--json")
            let report = try #require(queue.json[0]["id"].string)
            #expect(queue.json[0]["target_id"].uuid == grid)

            // Not an admin: refused, and nothing changes.
            try await cli.fails("admin", "reports", "--as", "bob")
            try await cli.fails("admin", "hide", "grid", grid.uuidString, "--as", "bob")
            #expect(try await cli.scalar("select hidden_at is null from grids.grids where id = \(grid)", as: Bool.self))

            try await cli.ok("admin", "hide", "grid", grid.uuidString, "--report", report, "--note", "spam")
            // Out of the Atlas by hidden_at alone: the maker's shared stays for an unhide to restore.
            #expect(try await cli.scalar("select hidden_at is not null and shared and not private.in_atlas(g) from grids.grids g where id = \(grid)", as: Bool.self))
            #expect(try await cli.scalar("select status from social.reports", as: String.self) == "actioned")
            // Its maker is told so, not that it is in the Atlas.
            #expect(try await cli.fails("grids", "share", grid.uuidString, "--as", "ann").stderr.contains("a moderator hid it"))
            #expect(try await cli.ok("admin", "reports").stdout.isEmpty)

            // A named admin's actions are attributed to them.
            #expect(try await cli.ok("admin", "admins", "--json").json.array.isEmpty)
            #expect(try await cli.ok("admin", "grant", "ada").stdout.contains("ada is now an admin"))
            #expect(try await cli.ok("admin", "grant", "ada@summit.test").stdout.contains("ada was already an admin"))
            #expect(try await cli.ok("admin", "admins", "--json").json.array.map { $0["username"].string } == ["ada"])
            try await cli.ok("admin", "suspend", "ann", "--as", "ada", "--note", "cooling off")
            #expect(try await cli.scalar("""
                select p.username from social.moderation_actions a join social.profiles p on p.id = a.admin_id
                where a.action = 'suspend_sharing'
                """, as: String.self) == "ada")
            let suspended = try await cli.fails("grids", "share", grid.uuidString, "--as", "ann")
            #expect(suspended.stderr.contains("suspended") || suspended.stderr.contains("hid"))
            try await cli.ok("admin", "lift", "ann")
            #expect(try await cli.scalar("select sharing_suspended_at is null from social.profiles where username = 'ann'", as: Bool.self))
            #expect(try await cli.ok("admin", "revoke", "ada", "--json").json["changed"].bool == true)
            try await cli.fails("admin", "reports", "--as", "ada")
            try await cli.fails("admin", "grant", "nobody")
            try await cli.fails("admin", "hide", "photo", grid.uuidString)
        }
    }

    @Test func everyCommandHasHelp() throws {
        func visit(_ command: Command, path: [String]) throws {
            let words = Array(path.dropFirst()) + ["--help"]
            guard case .help(let text) = try ArgumentParser.parse(
                words, root: SummitCLI.root, workspace: { throw CLIError("no workspace needed for help") }, console: Console())
            else {
                Issue.record("\(path.joined(separator: " ")) --help did not print help")
                return
            }
            #expect(text.hasPrefix("usage: \(path.joined(separator: " "))"))
            #expect(text.contains(command.summary))
            for sub in command.subcommands { try visit(sub, path: path + [sub.name]) }
        }
        for name in ["users", "friends", "grids", "admin", "bench"] {
            let command = try #require(SummitCLI.root.subcommands.first { $0.name == name })
            try visit(command, path: ["summit", name])
        }
    }
}
