import Foundation
import Postgres
import Summit
import Testing

/// `summit users` and `summit friends` against a real server.
@Suite(.serialized) struct UsersAndFriendsCLITests {
    @Test func usersAddCreatesTheAccountAndClaimsTheUsername() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            let created = try await cli.ok("users", "add", "Ann", "--json")
            #expect(created.json["username"].string == "ann")
            #expect(created.json["email"].string == "ann@summit.test")
            let id = try #require(created.json["id"].uuid)
            #expect(try await cli.scalar("select username from social.profiles where id = \(id)", as: String.self) == "ann")

            try await cli.ok("users", "add", "bob", "--email", "Bob@Example.com")
            #expect(try await cli.scalar("select count(*) from auth.users where email = 'Bob@Example.com'", as: Int.self) == 1)

            let taken = try await cli.fails("users", "add", "ann")
            #expect(taken.stderr.contains("is taken"))
            let reserved = try await cli.fails("users", "add", "admin")
            #expect(reserved.stderr.contains("reserved"))
            try await cli.fails("users", "add", "x")
            // A username that can't be claimed leaves no account behind.
            #expect(try await cli.scalar("select count(*) from auth.users", as: Int.self) == 2)
        }
    }

    @Test func aRequestIsAcceptedOnlyByItsRecipient() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob", "cat"] { try await cli.ok("users", "add", name) }
            #expect(try await cli.ok("friends", "request", "bob", "--as", "ann").stdout.contains("request sent to bob"))

            // cat cannot accept what ann sent to bob, and bob's request stays pending.
            let wrong = try await cli.fails("friends", "accept", "ann", "--as", "cat")
            #expect(wrong.stderr.contains("no pending friend request from ann"))
            #expect(try await cli.scalar("select count(*) from social.friend_requests where status = 'pending'", as: Int.self) == 1)

            let bobsList = try await cli.ok("friends", "list", "--as", "bob", "--json")
            #expect(bobsList.json["incoming"][0]["username"].string == "ann")
            try await cli.ok("friends", "accept", "ann", "--as", "bob")
            #expect(try await cli.scalar("select count(*) from social.friendships", as: Int.self) == 1)
            #expect(try await cli.ok("friends", "list", "--as", "ann").stdout.contains("friends:   bob"))

            try await cli.ok("friends", "remove", "bob", "--as", "ann")
            #expect(try await cli.scalar("select count(*) from social.friendships", as: Int.self) == 0)
        }
    }

    @Test func aRequestToSomeoneWhoBlockedYouLooksSent() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob"] { try await cli.ok("users", "add", name) }
            try await cli.ok("friends", "block", "ann", "--as", "bob")
            #expect(try await cli.ok("friends", "request", "bob", "--as", "ann").stdout.contains("request sent to bob"))
            #expect(try await cli.ok("friends", "list", "--as", "bob", "--json").json["incoming"].array.isEmpty)
            // bob blocked ann, so bob's own request is refused with what to do.
            let blocked = try await cli.fails("friends", "request", "ann", "--as", "bob")
            #expect(blocked.stderr.contains("--undo"))
        }
    }

    @Test func aLinkMakesFriendsOnce() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob", "cat"] { try await cli.ok("users", "add", name) }
            let link = try await cli.ok("friends", "link", "--as", "ann", "--json")
            let code = try #require(link.json["code"].string)
            #expect(link.json["path"].string == "/f/\(code)")
            try await cli.fails("friends", "redeem", code, "--as", "ann")
            #expect(try await cli.ok("friends", "redeem", "https://example.test/f/\(code)", "--as", "bob").stdout
                .contains("you and ann are friends"))
            let again = try await cli.fails("friends", "redeem", code, "--as", "cat")
            #expect(again.stderr.contains("not valid"))
            #expect(try await cli.scalar("select count(*) from social.friendships", as: Int.self) == 1)
        }
    }

    @Test func unknownPeopleAndMissingOptionsAreErrors() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("users", "add", "ann")
            let nobody = try await cli.fails("friends", "request", "nobody", "--as", "ann")
            #expect(nobody.stderr.contains("summit users add"))
            let missing = try await cli.fails("friends", "request", "ann")
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("--as"))
        }
    }
}
