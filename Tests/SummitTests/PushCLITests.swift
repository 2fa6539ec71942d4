import Foundation
import Postgres
import PushStandIn
import Summit
import SummitTestSupport
import Testing

/// `summit push devices`, `summit push deliver` and `summit push outbox` as
/// subprocesses, against a fresh database and the APNs stand-in.
@Suite(.serialized) struct PushCLITests {
    @Test func devicesAreRegisteredListedMovedAndRemovedAndDeliverSendsTheOutbox() async throws {
        try await withTemporaryFolder { folder in
            let standIn = try await APNsStandIn(in: folder, workspace: TestServer.workspace.root)
            defer { standIn.stop() }
            try await CLIHarness.withFreshDatabase { cli in
                for name in ["ann", "bob", "cat"] { try await cli.ok("users", "add", name) }
                let token = String(repeating: "ab", count: 32)
                let registered = try await cli.ok("push", "devices", "register", token.uppercased(), "--as", "bob",
                                                  "--environment", "sandbox", "--json")
                #expect(registered.json["token"].string == token)
                #expect(registered.json["environment"].string == "sandbox")
                let bad = try await cli.fails("push", "devices", "register", "12345", "--as", "bob")
                #expect(bad.stderr.contains("device_token_invalid"))
                let environment = try await cli.fails("push", "devices", "register", token, "--as", "bob", "--environment", "dev")
                #expect(environment.stderr.contains("or production, not \"dev\""))
                #expect(try await cli.ok("push", "devices", "list", "--as", "bob", "--json").json.array.count == 1)
                #expect(try await cli.ok("push", "devices", "list", "--as", "ann", "--json").json.array.isEmpty,
                        "ann sees none of bob's devices")

                try await cli.ok("friends", "request", "bob", "--as", "ann")
                let pending = try await cli.ok("push", "outbox", "--json")
                #expect(pending.json[0]["kind"].string == "friend_request")
                #expect(pending.json[0]["status"].string == "pending")

                // APNs settings from a file; its key_file is relative to it.
                let settings: [String: String] = [
                    "team_id": APNsStandIn.teamID, "key_id": APNsStandIn.keyID, "key_file": "AuthKey.p8",
                    "topic": APNsStandIn.topic, "production_url": "http://127.0.0.1:\(standIn.port)",
                    "sandbox_url": "http://127.0.0.1:\(standIn.port)",
                ]
                let file = folder.appendingPathComponent("apns.json")
                try JSONSerialization.data(withJSONObject: settings).write(to: file)
                let delivered = try await cli.ok("push", "deliver", "--once", "--json", "--config", file.path)
                #expect(delivered.json["delivered"].int == 1, "\(delivered.stdout) \(delivered.stderr)")
                #expect(standIn.records().map { $0["token"] as? String } == [token])
                let noConfig = try await cli.fails("push", "deliver", "--once", "--config", folder.appendingPathComponent("none.json").path)
                #expect(noConfig.stderr.contains("cannot read"))

                // The worker's outbox-delivery job sends what comes next: bob accepting, to ann's phone.
                let annsToken = String(repeating: "cd", count: 32)
                try await cli.ok("push", "devices", "register", annsToken, "--as", "ann")
                try await cli.ok("friends", "accept", "ann", "--as", "bob")
                let worker = try await cli.ok("worker", "--once", "--json", "--apns-config", file.path)
                #expect(worker.json["jobs"]["outbox-delivery"].string?.contains("1 delivered") == true, "\(worker.stdout)")
                #expect(standIn.records().map { $0["token"] as? String } == [token, annsToken])
                #expect((standIn.records().last?["payload"] as? [String: Any])?["type"] as? String == "friend_added")

                // The phone signs in as cat: the token moves, bob has no device left.
                try await cli.ok("push", "devices", "register", token, "--as", "cat")
                #expect(try await cli.ok("push", "devices", "list", "--as", "bob", "--json").json.array.isEmpty)
                #expect(try await cli.scalar("select count(*) from social.device_tokens where token = \(token)", as: Int.self) == 1)
                let notBobs = try await cli.fails("push", "devices", "remove", token, "--as", "bob")
                #expect(notBobs.stderr.contains("no device"))
                try await cli.ok("push", "devices", "remove", token, "--as", "cat")
                #expect(try await cli.scalar("select count(*) from social.device_tokens where token = \(token)", as: Int.self) == 0)
            }
        }
    }
}
