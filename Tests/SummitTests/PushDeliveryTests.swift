import Foundation
import Postgres
import Push
import PushStandIn
import Summit
import SummitTestSupport
import Testing

/// The push outbox end to end: friend requests written as users enqueue
/// notifications in SQL, `PushDelivery` claims and sends them through the APNs
/// client to a real HTTP/2 server (the `h2` stand-in), and the outbox records
/// what APNs answered.
@Suite(.serialized)
struct PushDeliveryTests {
    /// A random device token after `prefix`; by default "f…", which none of the stand-in's failing prefixes begins with.
    static func token(_ prefix: String = "f") -> String {
        let random = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        return prefix + random.dropFirst(prefix.count)
    }

    /// A user with a username and one registered device.
    static func user(_ name: String, token: String? = nil, environment: String = "production",
                     on db: PostgresConnection) async throws -> UUID {
        let id = try await db.query("select tests.create_user(\(name + "@example.test"), null, \(#"{"username":""# + name + #""}"#)::jsonb)")
            .scalar(UUID.self)
        if let token {
            _ = try await db.query("select social.register_device_token(\(token), \(environment))::text", as: .user(id)).scalar(String.self)
        }
        return id
    }

    static func sendFriendRequest(from sender: UUID, to receiver: UUID, on db: PostgresConnection) async throws -> String {
        try await db.query("select social.send_friend_request(\(receiver))", as: .user(sender)).scalar(String.self)
    }

    @Test("each event reaches APNs exactly once across two concurrent deliverers; a blocked pair gets nothing")
    func exactlyOnceAcrossTwoDeliverers() async throws {
        try await withTemporaryFolder { folder in
            let standIn = try await APNsStandIn(in: folder, workspace: TestServer.workspace.root)
            defer { standIn.stop() }
            try await withFreshDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    let ann = try await Self.user("ann", token: Self.token(), on: db)
                    var tokens: [String: String] = [:]
                    for index in 0..<24 {
                        let token = Self.token()
                        let friend = try await Self.user("friend\(index)", token: token, on: db)
                        tokens[token] = "friend\(index)"
                        #expect(try await Self.sendFriendRequest(from: ann, to: friend, on: db) == "sent")
                    }
                    // eve blocked ann: ann's request looks sent, and eve's phone hears nothing.
                    let eveToken = Self.token()
                    let eve = try await Self.user("eve", token: eveToken, on: db)
                    _ = try await db.query("select social.block_user(\(ann))::text", as: .user(eve)).scalar(String.self)
                    #expect(try await Self.sendFriendRequest(from: ann, to: eve, on: db) == "sent")

                    // Two deliverers, each with its own connection and APNs client, small batches so their claims interleave.
                    async let first = Self.deliver(configuration, standIn, worker: "worker-1")
                    async let second = Self.deliver(configuration, standIn, worker: "worker-2")
                    let counts = try await [first, second]
                    #expect(counts.map(\.delivered).reduce(0, +) == 24, "\(counts)")
                    #expect(counts.map(\.lost).reduce(0, +) == 0)

                    let records = standIn.records()
                    #expect(records.count == 24, "the stand-in received \(records.count) requests")
                    let ids = records.compactMap { $0["apns_id"] as? String }
                    #expect(Set(ids).count == 24, "every request carried its own notification id")
                    #expect(Set(records.compactMap { $0["token"] as? String }) == Set(tokens.keys), "one push per friend's device")
                    #expect(!records.contains { ($0["token"] as? String) == eveToken }, "nothing reached eve, who blocked ann")
                    for record in records {
                        #expect(record["jwt_problem"] is NSNull, "the stand-in rejected the provider token: \(record)")
                        #expect(record["status"] as? Int == 200)
                        #expect(record["topic"] as? String == APNsStandIn.topic)
                        #expect(record["push_type"] as? String == "alert")
                        #expect(record["priority"] as? String == "10")
                        let payload = record["payload"] as? [String: Any]
                        #expect(payload?["type"] as? String == "friend_request")
                        let alert = (payload?["aps"] as? [String: Any])?["alert"] as? [String: Any]
                        #expect(alert?["body"] as? String == "@ann wants to be friends")
                    }
                    let statuses = try await db.query("select status, count(*)::int as n from push.outbox group by status order by status")
                        .decode(StatusCount.self)
                    #expect(statuses == [StatusCount(status: "delivered", n: 24)])
                    // Nothing is due any more: a third pass claims nothing and sends nothing.
                    let again = try await Self.deliver(configuration, standIn, worker: "worker-3")
                    #expect(again.claimed == 0)
                    #expect(standIn.records().count == 24)
                }
            }
        }
    }

    @Test("410 removes the token; a 500 or a stand-in that is down leaves the row for retry, and the user's write stands")
    func failuresAreRecordedNotRaised() async throws {
        try await withTemporaryFolder { folder in
            let standIn = try await APNsStandIn(in: folder, workspace: TestServer.workspace.root)
            defer { standIn.stop() }
            let down = URL(string: "http://127.0.0.1:\(try APNsStandIn.closedPort())")!
            try await withFreshDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    let ann = try await Self.user("ann", on: db)
                    let deadToken = Self.token("dead")
                    let bob = try await Self.user("bob", token: deadToken, on: db)
                    let cat = try await Self.user("cat", token: Self.token("5000"), on: db)
                    // dan's phone is a development build: its pushes go to the sandbox endpoint, which is down.
                    let dan = try await Self.user("dan", token: Self.token(), environment: "sandbox", on: db)
                    for friend in [bob, cat, dan] {
                        #expect(try await Self.sendFriendRequest(from: ann, to: friend, on: db) == "sent")
                    }
                    let client = try APNsClient(standIn.configuration(sandbox: down))
                    let counts = try await PushDelivery.deliverDue(on: db, client: client, worker: "worker-1")
                    await client.close()
                    #expect(counts.claimed == 3)
                    #expect(counts.deadTokens == 1)
                    #expect(counts.retried == 2)
                    #expect(counts.delivered == 0)

                    #expect(try await db.query("select count(*)::int from social.device_tokens where token = \(deadToken)")
                        .scalar(Int.self) == 0, "the token APNs called Unregistered is gone")
                    let rows = try await db.query("""
                        select recipient_id, attempts, last_http_status, last_error,
                               next_attempt_at > now() + interval '15 seconds' as backed_off
                        from push.outbox where status = 'pending' order by last_http_status nulls last
                        """).decode(PendingRow.self)
                    #expect(rows.map(\.recipientId) == [cat, dan])
                    #expect(rows.allSatisfy { $0.attempts == 1 && $0.backedOff }, "\(rows)")
                    #expect(rows.first?.lastHttpStatus == 500)
                    #expect(rows.first?.lastError == "InternalServerError")
                    #expect(rows.last?.lastHttpStatus == nil)
                    #expect(rows.last?.lastError?.contains("cannot connect") == true, "\(rows.last?.lastError ?? "")")
                    // The requests themselves stand, whatever became of their pushes.
                    #expect(try await db.query("select count(*)::int from social.friend_requests where status = 'pending'")
                        .scalar(Int.self) == 3)
                    // Backing off: an immediate second pass finds nothing due.
                    let retryClient = try APNsClient(standIn.configuration(sandbox: down))
                    #expect(try await PushDelivery.deliverDue(on: db, client: retryClient, worker: "worker-2").claimed == 0)
                    await retryClient.close()
                    #expect(standIn.records().map { $0["status"] as? Int } .sorted { ($0 ?? 0) < ($1 ?? 0) } == [410, 500])
                }
            }
        }
    }

    @Test("a server that closes the connection after answering (GOAWAY) is reconnected to for the next notification")
    func reconnectsAfterGoAway() async throws {
        try await withTemporaryFolder { folder in
            let standIn = try await APNsStandIn(in: folder, workspace: TestServer.workspace.root)
            defer { standIn.stop() }
            try await withFreshDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    let ann = try await Self.user("ann", on: db)
                    let closing = Self.token("c105ed"), next = Self.token()
                    for (name, token) in [("bob", closing), ("cat", next)] {
                        let friend = try await Self.user(name, token: token, on: db)
                        #expect(try await Self.sendFriendRequest(from: ann, to: friend, on: db) == "sent")
                    }
                    // Batches of one, so the second notification follows the first, after the server closed.
                    let client = try APNsClient(standIn.configuration())
                    let counts = try await PushDelivery.deliverDue(on: db, client: client, worker: "worker-1", batch: 1)
                    await client.close()
                    let errors = try await db.query("select coalesce(string_agg(last_error, '; '), '') from push.outbox").scalar(String.self)
                    #expect(counts.delivered == 2, "\(counts): \(errors)")
                    let records = standIn.records()
                    #expect(records.map { $0["token"] as? String } == [closing, next])
                    #expect(Set(records.compactMap { $0["connection"] as? Int }).count == 2, "the second went on a new connection")
                }
            }
        }
    }

    @Test("over TLS with ALPN h2 (libcurl on OpenSSL), verified against the stand-in's certificate")
    func deliversOverTLS() async throws {
        try await withTemporaryFolder { folder in
            let standIn = try await APNsStandIn(in: folder, workspace: TestServer.workspace.root, tls: true)
            defer { standIn.stop() }
            try await withFreshDatabase { configuration in
                try await PostgresConnection.withConnection(configuration) { db in
                    let ann = try await Self.user("ann", on: db)
                    let token = Self.token()
                    let bob = try await Self.user("bob", token: token, on: db)
                    #expect(try await Self.sendFriendRequest(from: ann, to: bob, on: db) == "sent")
                    let client = try APNsClient(standIn.configuration())
                    let counts = try await PushDelivery.deliverDue(on: db, client: client, worker: "tls")
                    await client.close()
                    #expect(counts.delivered == 1, "\(counts)")
                    #expect(standIn.records().map { $0["token"] as? String } == [token])

                    // A client that does not trust the certificate refuses the server.
                    var untrusting = standIn.configuration()
                    untrusting.caFile = nil
                    let refusing = try APNsClient(untrusting)
                    let (outcome, _) = await refusing.send(APNsNotification(deviceToken: token, environment: .production,
                                                                           payload: Data(#"{"aps":{}}"#.utf8)))
                    await refusing.close()
                    guard case .retry(let reason, _) = outcome else {
                        Issue.record("an untrusted certificate was accepted: \(outcome)")
                        return
                    }
                    #expect(reason.contains("not trusted"), "\(reason)")
                }
            }
        }
    }

    static func deliver(_ configuration: PostgresConfiguration, _ standIn: APNsStandIn, worker: String) async throws -> PushDelivery.Counts {
        let client = try APNsClient(standIn.configuration())
        let counts = try await PostgresConnection.withConnection(configuration) { db in
            try await PushDelivery.deliverDue(on: db, client: client, worker: worker, batch: 5)
        }
        await client.close()
        return counts
    }

    struct StatusCount: Decodable, Equatable {
        var status: String
        var n: Int
    }

    struct PendingRow: Decodable {
        var recipientId: UUID
        var attempts: Int
        var lastHttpStatus: Int?
        var lastError: String?
        var backedOff: Bool
    }
}
