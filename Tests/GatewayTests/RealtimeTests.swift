import Foundation
import Gateway
import Postgres
import Testing

/// Realtime over real sockets: refusals, the friend filter on position channels,
/// tokens that expire or are replaced, signed-out sessions, presence across
/// gateways (and a gateway that dies), and row changes under RLS.
@Suite struct RealtimeTests {
    static func publish(_ gateway: GatewayHarness, _ account: GatewayHarness.Account, lat: Double = 39.6403,
                        at: Date = Date()) async throws {
        let response = try await gateway.rpc("meet", "broadcast_position", as: account, [
            "p_resort_id": "vail", "p_lat": lat, "p_lon": -106.3742,
            "p_captured_at": ISO8601DateFormatter.withFraction.string(from: at), "p_accuracy_m": 5,
        ])
        guard response.status == 200 else { throw RawClient.Failure(description: "publish answered \(response.status): \(response.text)") }
    }

    static func isPosition(from user: UUID, lat: Double? = nil) -> ([String: Any]) -> Bool {
        { message in
            guard message.event == "broadcast", message.body["event"] as? String == "position",
                  let packet = message.body["payload"] as? [String: Any],
                  packet["u"] as? String == user.uuidString.lowercased() else { return false }
            return lat.map { packet["lat"] as? Double == $0 } ?? true
        }
    }

    @Test func refusalsSayWhy() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bad = try RawClient(port: gateway.port)
            #expect(try await bad.upgrade("/realtime/v1/websocket?apikey=nope&vsn=1.0.0").status == 401)
            let old = try RawClient(port: gateway.port)
            #expect(try await old.upgrade("/realtime/v1/websocket?apikey=\(gateway.anonKey)&vsn=9.9.9").status == 400)

            let client = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let heartbeat = await client.push("phoenix", "heartbeat")
            let beat = try await client.next { $0["ref"] as? String == heartbeat }
            #expect((beat.body["status"] as? String) == "ok")

            func reason(_ reply: [String: Any]) -> String {
                ((reply["response"] as? [String: Any])?["reason"] as? String) ?? ""
            }
            let forged = JWT.sign(claims: ["role": "authenticated", "sub": ann.id.uuidString, "aud": "authenticated",
                                           "exp": Int(Date().timeIntervalSince1970) + 600], secret: Array("not the gateway's secret at all!!".utf8))
            let forgedReply = try await client.join("room", accessToken: forged)
            #expect(forgedReply["status"] as? String == "error")
            #expect(reason(forgedReply).contains("Invalid JWT"))
            #expect(reason(try await client.join("room", config: ["private": true])).contains("private channels"))
            #expect(reason(try await client.join("pos:resort:vail")).contains("sign in"))
            #expect(reason(try await client.join("pos:resort:vail", accessToken: ann.accessToken)) == "")
            #expect(reason(try await client.join("y", config: ["postgres_changes": [["event": "*", "schema": "social", "table": "friendships",
                                                                                     "filter": "user_a=zz.1"]]],
                                                 accessToken: ann.accessToken)).contains("cannot be read"))
            #expect(reason(try await client.join("z", config: ["postgres_changes": [["event": "*", "schema": "social", "table": "friendships"]]]))
                .contains("sign in"))
            let stray = await client.push("realtime:never-joined", "broadcast", ["type": "broadcast", "event": "x", "payload": [:]])
            let strayReply = try await client.next { $0["ref"] as? String == stray }
            #expect(reason(strayReply.body).contains("unmatched topic"))
            gateway.clock.advance(3700)
            #expect(reason(try await client.join("late", accessToken: ann.accessToken)).contains("expired"))
        }
    }

    @Test func positionsReachFriendsOnlyAndAnUnfriendStopsThemAtOnce() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let carl = try await gateway.signUp("carl")
            try await gateway.befriend(ann, bob)
            let bobSocket = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let carlSocket = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            #expect(try await bobSocket.join("pos:resort:vail", accessToken: bob.accessToken)["status"] as? String == "ok")
            #expect(try await carlSocket.join("pos:resort:vail", accessToken: carl.accessToken)["status"] as? String == "ok")
            // Wait until both are live: the friend list arrives once the snapshot is applied.
            _ = try await bobSocket.next { $0.body["event"] as? String == "friends" }

            try await Self.publish(gateway, ann, lat: 39.6401)
            let got = try await bobSocket.next(Self.isPosition(from: ann.id, lat: 39.6401))
            let packet = try #require(got.body["payload"] as? [String: Any])
            #expect(packet["n"] as? String == "ann")
            #expect(packet["freshness"] as? String == "live")
            #expect(!(await carlSocket.receives(within: .milliseconds(800), Self.isPosition(from: ann.id))))

            _ = try await gateway.rpc("social", "remove_friend", as: bob, ["p_user_id": ann.id.uuidString])
            try await Self.publish(gateway, ann, lat: 39.6402, at: Date().addingTimeInterval(1))
            #expect(!(await bobSocket.receives(within: .milliseconds(1500), Self.isPosition(from: ann.id, lat: 39.6402))),
                    "the packet right after the unfriend is not delivered")
            let friends = try await bobSocket.next { $0.body["event"] as? String == "friends" && (($0.body["payload"] as? [String: Any])?["friends"] as? [Any])?.isEmpty == true }
            #expect(friends.topic == "realtime:pos:resort:vail")
        }
    }

    @Test func tokensExpireAndRefreshesTakeEffectAtOnce() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let client = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            #expect(try await client.join("room", accessToken: ann.accessToken)["status"] as? String == "ok")
            gateway.clock.advance(3000)
            let fresh = try await gateway.http("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": ann.refreshToken])
            let token = try #require((fresh.json as? [String: Any])?["access_token"] as? String)
            await client.push("realtime:room", "access_token", ["access_token": token])
            // A socket's messages are handled in order: once the heartbeat is answered, so is the token.
            let beat = await client.push("phoenix", "heartbeat")
            _ = try await client.next { $0["ref"] as? String == beat }
            // Past the first token's expiry, within the new one's: still joined.
            gateway.clock.advance(700)
            #expect(!(await client.receives(within: .seconds(2)) { $0.event == "system" || $0.event == "phx_close" }))
            // Past the new one's too: closed with the reason.
            gateway.clock.advance(3600)
            let system = try await client.next { $0.event == "system" }
            #expect(system.body["status"] as? String == "error")
            #expect((system.body["message"] as? String)?.contains("Token has expired") == true)
            _ = try await client.next { $0.event == "phx_close" }

            // A token for someone else ends the channel too.
            let bob = try await gateway.signUp("bob")
            let annAgain = try await signIn(gateway, "ann")
            #expect(try await client.join("other", accessToken: annAgain)["status"] as? String == "ok")
            await client.push("realtime:other", "access_token", ["access_token": bob.accessToken])
            let switched = try await client.next { $0.event == "system" && $0.topic == "realtime:other" }
            #expect((switched.body["message"] as? String)?.contains("another user") == true)
        }
    }

    /// A fresh access token for `name` at the gateway's clock.
    func signIn(_ gateway: GatewayHarness, _ name: String) async throws -> String {
        let response = try await gateway.http("POST", "/auth/v1/token?grant_type=password",
                                              json: ["email": "\(name)@example.test", "password": "correct horse"])
        return try #require((response.json as? [String: Any])?["access_token"] as? String)
    }

    /// Serializer 2.0.0: the same messages as arrays `[join_ref, ref, topic, event, payload]`.
    @Test func theArraySerializerWorksToo() async throws {
        try await withGateway { gateway in
            let client = try RawClient(port: gateway.port)
            #expect(try await client.upgrade("/realtime/v1/websocket?apikey=\(gateway.anonKey)&vsn=2.0.0").status == 101)
            await client.sendText(#"["1","1","realtime:room","phx_join",{"config":{"broadcast":{"self":true}}}]"#)
            func nextArray() async throws -> [Any] {
                let frame = try await client.readFrame()
                return try #require(try JSONSerialization.jsonObject(with: Data(frame.payload)) as? [Any])
            }
            let reply = try await nextArray()
            #expect(reply[0] as? String == "1" && reply[1] as? String == "1" && reply[3] as? String == "phx_reply")
            #expect((reply[4] as? [String: Any])?["status"] as? String == "ok")
            await client.sendText(#"["1","2","realtime:room","broadcast",{"type":"broadcast","event":"hi","payload":{"n":1}}]"#)
            let echo = try await nextArray()
            #expect(echo[2] as? String == "realtime:room" && echo[3] as? String == "broadcast")
            #expect(((echo[4] as? [String: Any])?["payload"] as? [String: Any])?["n"] as? Int == 1)
        }
    }

    @Test func aSignedOutSessionCannotJoin() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            #expect(try await gateway.http("POST", "/auth/v1/logout?scope=local", token: ann.accessToken).status == 204)
            let client = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let reply = try await client.join("room", accessToken: ann.accessToken)
            #expect(reply["status"] as? String == "error")
            #expect(((reply["response"] as? [String: Any])?["reason"] as? String)?.contains("signed out") == true)
        }
    }

    @Test func presenceConvergesAcrossGatewaysAndOutlivesNoDeadOne() async throws {
        try await withGateways(2) { gateways in
            let (a, b) = (gateways[0], gateways[1])
            let ann = try await a.signUp("ann")
            let bob = try await a.signUp("bob")
            let annSocket = try await PhoenixClient(port: a.port, apikey: a.anonKey)
            let bobSocket = try await PhoenixClient(port: b.port, apikey: b.anonKey)
            #expect(try await annSocket.join("lobby", config: ["presence": ["key": "ann", "enabled": true]], accessToken: ann.accessToken)["status"] as? String == "ok")
            await annSocket.push("realtime:lobby", "presence", ["type": "presence", "event": "track", "payload": ["status": "skiing"]])
            _ = try await annSocket.next { $0.event == "presence_diff" }
            #expect(try await bobSocket.join("lobby", config: ["presence": ["key": "bob", "enabled": true]], accessToken: bob.accessToken)["status"] as? String == "ok")
            let state = try await bobSocket.next { $0.event == "presence_state" }
            let metas = ((state.body["ann"] as? [String: Any])?["metas"] as? [[String: Any]]) ?? []
            #expect(metas.first?["status"] as? String == "skiing", "bob's gateway sees ann, tracked on the other one: \(state)")

            // A gateway that dies without a word: its presences go when it stops beating.
            let ghost = UUID()
            try await a.sql { db in
                try await db.query("insert into realtime.gateway_nodes values (\(ghost), now() - interval '1 minute')")
                try await db.query("""
                    insert into realtime.gateway_presences (topic, presence_ref, presence_key, node_id, meta)
                    values ('realtime:lobby', 'ghost:1', 'ghost', \(ghost), '{"status": "gone"}')
                    """)
            }
            let leave = try await bobSocket.next(timeout: .seconds(15)) { message in
                message.event == "presence_diff" && (message.body["leaves"] as? [String: Any])?["ghost"] != nil
            }
            #expect(leave.topic == "realtime:lobby")

            // A gateway that shuts down takes its presences with it, announced.
            await a.gateway.shutdown()
            _ = try await bobSocket.next(timeout: .seconds(15)) { message in
                message.event == "presence_diff" && (message.body["leaves"] as? [String: Any])?["ann"] != nil
            }
        }
    }

    /// The platform answers a join naming a table that sends no changes ok, then says
    /// why in a system message with status error, at once; the channel's other
    /// bindings are not subscribed either, and broadcast goes on.
    @Test func aTableThatSendsNoChangesIsToldAtOnceInASystemMessage() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let client = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let bindings: [[String: Any]] = [["event": "*", "schema": "social", "table": "profiles"],
                                             ["event": "INSERT", "schema": "social", "table": "friendships"]]
            let started = ContinuousClock.now
            let joined = try await client.join("mixed", config: ["postgres_changes": bindings, "broadcast": ["self": true]],
                                               accessToken: ann.accessToken)
            #expect(joined["status"] as? String == "ok", "\(joined)")
            let echoed = try #require((joined["response"] as? [String: Any])?["postgres_changes"] as? [[String: Any]])
            #expect(echoed.map { $0["table"] as? String } == ["profiles", "friendships"], "every binding is echoed, as clients check")
            // Before the client libraries' 10-second join timeout would have said anything.
            let system = try await client.next(timeout: .seconds(10)) { $0.event == "system" && $0.topic == "realtime:mixed" }
            #expect(ContinuousClock.now - started < .seconds(10), "told at once, not after a client's timeout")
            #expect(system["ref"] is NSNull, "system messages carry no ref (realtime-py requires null)")
            #expect(system.body["status"] as? String == "error")
            #expect(system.body["extension"] as? String == "postgres_changes")
            #expect(system.body["channel"] as? String == "mixed")
            let text = system.body["message"] as? String ?? ""
            #expect(text.hasPrefix("Unable to subscribe to changes with given parameters"), "\(text)")
            #expect(text.contains("schema: social, table: profiles") && text.contains("social.friendships"), "says which and which do: \(text)")
            #expect(!(await client.receives(within: .milliseconds(500)) { $0.body["message"] as? String == "Subscribed to PostgreSQL" }))

            // Subscribed to none: a new friendship of ann's is not delivered here.
            try await gateway.befriend(ann, bob)
            #expect(!(await client.receives(within: .seconds(1)) { $0.event == "postgres_changes" }))
            // The channel itself works.
            await client.push("realtime:mixed", "broadcast", ["type": "broadcast", "event": "hi", "payload": ["n": 1]])
            _ = try await client.next { $0.event == "broadcast" && $0.topic == "realtime:mixed" }
        }
    }

    /// presence_state goes only to channels joined with presence.enabled (true or
    /// "true", as the platform reads it); a presence key alone does not enable it.
    @Test func presenceStateOnlyWhenPresenceIsEnabled() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let client = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let cases: [(String, [String: Any]?, Bool)] = [
                ("none", nil, false), ("key-only", ["key": "ann"], false), ("disabled", ["key": "ann", "enabled": false], false),
                ("enabled", ["key": "ann", "enabled": true], true), ("enabled-text", ["enabled": "true"], true),
            ]
            for (topic, presence, expected) in cases {
                var config: [String: Any] = [:]
                if let presence { config["presence"] = presence }
                #expect(try await client.join(topic, config: config, accessToken: ann.accessToken)["status"] as? String == "ok")
                let got = await client.receives(within: .milliseconds(700)) { $0.event == "presence_state" && $0.topic == "realtime:\(topic)" }
                #expect(got == expected, "\(topic): presence_state \(got ? "sent" : "not sent")")
            }
        }
    }

    @Test func rowChangesReachPartiesUnderTheirFilters() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let carl = try await gateway.signUp("carl")
            let binding: [String: Any] = ["event": "INSERT", "schema": "social", "table": "friendships"]
            let bobSocket = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let joined = try await bobSocket.join("mine", config: ["postgres_changes": [binding]], accessToken: bob.accessToken)
            let reply = try #require((joined["response"] as? [String: Any])?["postgres_changes"] as? [[String: Any]])
            let id = try #require(reply.first?["id"] as? Int)
            #expect(reply.first?["table"] as? String == "friendships")
            _ = try await bobSocket.next { $0.event == "system" && $0.body["extension"] as? String == "postgres_changes" }
            // carl filters on a row he could never read: nothing arrives either way.
            let carlSocket = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            var carlBinding = binding
            carlBinding["event"] = "*"
            _ = try await carlSocket.join("mine", config: ["postgres_changes": [carlBinding]], accessToken: carl.accessToken)

            try await gateway.befriend(ann, bob)
            let change = try await bobSocket.next { $0.event == "postgres_changes" }
            #expect(change.body["ids"] as? [Int] == [id])
            let data = try #require(change.body["data"] as? [String: Any])
            #expect(data["type"] as? String == "INSERT")
            let record = try #require(data["record"] as? [String: Any])
            #expect(Set([record["user_a"] as? String, record["user_b"] as? String]) == Set([ann.id.uuidString.lowercased(), bob.id.uuidString.lowercased()]))
            #expect((data["columns"] as? [[String: Any]])?.map { $0["name"] as? String } == ["user_a", "user_b", "created_at"])
            #expect(!(await carlSocket.receives(within: .seconds(1)) { $0.event == "postgres_changes" }))
        }
    }
}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFraction: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
