import Foundation
import Gateway
import Postgres
import SummitTestSupport
import Testing

/// `SUMMIT_READ_URL`: lag-tolerant reads go to the read pool, everything else and a
/// writer's own reads to the primary, and a read pool that cannot answer costs nothing.
///
/// The "standby" is a clone of the primary taken after sign-up, then changed behind the
/// gateway's back, so each answer tells which database gave it.
@Suite struct ReadRoutingTests {
    @Test func lagTolerantReadsGoToTheReadPoolAndWritersReadTheirWrites() async throws {
        try await withFreshDatabase { primary in
            let configuration = try GatewayConfiguration.forTests()
            let clock = TestClock()
            // Two people on the primary, friends, before the standby is cloned from it.
            let (ann, bob) = try await withGateway(on: primary, configuration: configuration, clock: clock) { gateway in
                let ann = try await gateway.signUp("ann")
                let bob = try await gateway.signUp("bob")
                try await gateway.befriend(ann, bob)
                return (ann, bob)
            }
            try await withCopy(of: primary) { standby in
                try await Self.routes(primary, standby: standby, configuration: configuration, clock: clock, ann: ann, bob: bob)
            }
        }
    }

    private static func routes(_ primary: PostgresConfiguration, standby: PostgresConfiguration, configuration: GatewayConfiguration,
                               clock: TestClock, ann: GatewayHarness.Account, bob: GatewayHarness.Account) async throws {
            try await PostgresConnection.withConnection(standby) { db in
                try await db.query("update social.profiles set bio = 'as the standby has it' where username = 'ann'")
                try await db.query("update social.friendships set created_at = '2001-01-01T00:00:00Z'")
                try await db.query("""
                    insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
                    values ('standby-peak', 'Standby Peak', 46, 7, 46.1, 7.1, 46.05, 7.05)
                    """)
            }
            try await withGateway(on: primary, readDatabase: standby, configuration: configuration, clock: clock) { gateway in
                func bio(as account: GatewayHarness.Account) async throws -> String? {
                    let answer = try await gateway.rpc("grids", "profile_view", as: account, ["p_user_id": ann.id.uuidString])
                    #expect(answer.status == 200, "\(answer.text)")
                    return (answer.json as? [String: Any])?["bio"] as? String
                }
                // The sessions began a while ago: their reads of others' profiles are the standby's.
                clock.advance(60)
                #expect(try await bio(as: bob) == "as the standby has it")
                // A relation not named lag-tolerant is always the primary's.
                let friendships = try await gateway.http("GET", "/rest/v1/friendships?select=created_at", token: bob.accessToken,
                                                         headers: ["Accept-Profile": "social"])
                let since = try #require((friendships.json as? [[String: Any]])?.first?["created_at"] as? String, "\(friendships.text)")
                #expect(!since.hasPrefix("2001"))
                // A stable function named lag-tolerant, called with POST as the clients do, is the standby's.
                let search = try await gateway.rpc("mountain", "search_resorts", as: bob, ["p_query": "Standby"])
                #expect((search.json as? [[String: Any]])?.map { $0["id"] as? String } == ["standby-peak"], "\(search.text)")

                // Ann writes her bio: for a while her reads are the primary's and she sees it.
                let write = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString.lowercased())", token: ann.accessToken,
                                                   headers: ["Content-Profile": "social"], json: ["bio": "written just now"])
                #expect(write.status == 204 || write.status == 200, "\(write.text)")
                #expect(try await bio(as: ann) == "written just now")
                // Bob did not write: his read is still the standby's, a moment behind.
                #expect(try await bio(as: bob) == "as the standby has it")
                // Once the window has passed, Ann reads from the standby again.
                clock.advance(6)
                #expect(try await bio(as: ann) == "as the standby has it")
                // A volatile function is a write, wherever its name: her next read is the primary's.
                let request = try await gateway.rpc("social", "send_friend_request", as: ann, ["p_user_id": bob.id.uuidString])
                #expect(request.status == 400 || request.status == 200)
                #expect(try await bio(as: ann) == "written just now")
                // A new session (sign-in) reads the primary too: what its sign-up wrote is there.
                let carol = try await gateway.signUp("carol")
                let own = try await gateway.http("GET", "/rest/v1/profiles?select=username&id=eq.\(carol.id.uuidString.lowercased())",
                                                 token: carol.accessToken, headers: ["Accept-Profile": "social"])
                #expect((own.json as? [[String: Any]])?.first?["username"] as? String == "carol", "\(own.text)")
            }
    }

    @Test func aReadPoolThatCannotAnswerHandsReadsToThePrimary() async throws {
        try await withFreshDatabase { primary in
            // Nothing listens there: every read the pool gets fails to connect.
            let nowhere = try PostgresConfiguration("host=127.0.0.1 port=1 dbname=nowhere connect_timeout=2")
            try await withGateway(on: primary, readDatabase: nowhere, configuration: try GatewayConfiguration.forTests(), clock: TestClock()) { gateway in
                let ann = try await gateway.signUp("ann")
                gateway.clock.advance(60)
                let answer = try await gateway.rpc("grids", "profile_view", as: ann, ["p_user_id": ann.id.uuidString])
                #expect(answer.status == 200, "\(answer.text)")
                #expect((answer.json as? [String: Any])?["username"] as? String == "ann")
                let search = try await gateway.rpc("mountain", "search_resorts", as: ann, [:])
                #expect(search.status == 200, "\(search.text)")
            }
        }
    }
}
