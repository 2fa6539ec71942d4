import Foundation
import OwnThread
import Push
import PushStandIn
import SummitTestSupport
import Testing

/// The APNs client against the `h2` stand-in (Tests/APNsStandIn), a real HTTP/2
/// server: streams multiplexed on one connection, the concurrency bound, and the
/// failures an operator has to act on, each named with what to do.
@Suite(.serialized, .ownThread) struct APNsClientTests {
    /// A random token after `prefix`; by default "f…", which none of the stand-in's failing prefixes begins with.
    static func notification(_ prefix: String = "f", environment: APNsEnvironment = .production) -> APNsNotification {
        let random = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        return APNsNotification(deviceToken: prefix + random.dropFirst(prefix.count), environment: environment,
                                payload: Data(#"{"aps":{"alert":"hi"}}"#.utf8), id: UUID())
    }

    /// Sends all of `notifications` at once; their outcomes in the same order.
    static func sendAll(_ notifications: [APNsNotification], through client: APNsClient) async -> [APNsOutcome] {
        await withTaskGroup(of: (Int, APNsOutcome).self) { group in
            for (index, notification) in notifications.enumerated() {
                group.addTask { (index, await client.send(notification).outcome) }
            }
            var outcomes = [APNsOutcome?](repeating: nil, count: notifications.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.map { $0! }
        }
    }

    /// Runs `body` with a stand-in of its own in a temporary folder, stopped afterwards.
    static func withStandIn(tls: Bool = false, certificateHost: String = "localhost", delayMilliseconds: Double = 0,
                            _ body: (APNsStandIn) async throws -> Void) async throws {
        try await withTemporaryFolder { folder in
            let standIn = try await APNsStandIn(in: folder, workspace: TestServer.workspace.root, tls: tls,
                                                certificateHost: certificateHost, delayMilliseconds: delayMilliseconds)
            defer { standIn.stop() }
            try await body(standIn)
        }
    }

    static func reason(_ outcome: APNsOutcome) -> String {
        if case .retry(let reason, _) = outcome { return reason }
        Issue.record("expected a retry, got \(outcome)")
        return ""
    }

    @Test("many notifications at once share one connection as concurrent streams", arguments: [false, true])
    func multiplexesOnOneConnection(tls: Bool) async throws {
        try await Self.withStandIn(tls: tls, delayMilliseconds: 300) { standIn in
            // Each answer comes 300 ms after its request: one at a time, twenty would take six seconds.
            let client = try APNsClient(standIn.configuration())
            let notifications = (0..<20).map { _ in Self.notification() }
            let started = ContinuousClock.now
            let outcomes = await Self.sendAll(notifications, through: client)
            let elapsed = ContinuousClock.now - started
            await client.close()
            #expect(outcomes.allSatisfy { $0 == .delivered }, "\(outcomes)")
            let records = standIn.records()
            #expect(records.count == 20)
            #expect(Set(records.compactMap { $0["connection"] as? Int }).count == 1, "all on one connection")
            #expect(records.compactMap { $0["connections_accepted"] as? Int }.max() == 1, "the server accepted one connection")
            let inFlight = records.compactMap { $0["in_flight"] as? Int }.max() ?? 0
            #expect(inFlight >= 10, "at most \(inFlight) requests were open at once on the connection")
            #expect(elapsed < .seconds(3), "twenty 300 ms round trips took \(elapsed)")
            #expect(records.allSatisfy { $0["jwt_problem"] is NSNull }, "the stand-in verified every provider token")
        }
    }

    @Test("APNS_CONCURRENCY 1 keeps one request in flight on the connection")
    func concurrencyOne() async throws {
        try await Self.withStandIn(delayMilliseconds: 100) { standIn in
            var configuration = standIn.configuration()
            configuration.concurrency = 1
            let client = try APNsClient(configuration)
            let outcomes = await Self.sendAll((0..<5).map { _ in Self.notification() }, through: client)
            await client.close()
            #expect(outcomes == Array(repeating: .delivered, count: 5))
            let records = standIn.records()
            #expect(records.compactMap { $0["in_flight"] as? Int } == [1, 1, 1, 1, 1])
            #expect(Set(records.compactMap { $0["connection"] as? Int }).count == 1, "one connection, reused")
        }
    }

    @Test("410 forgets the token, 429 is retried after the server's retry-after, 400 is given up")
    func answers() async throws {
        try await Self.withStandIn { standIn in
            let client = try APNsClient(standIn.configuration())
            let outcomes = await Self.sendAll(["dead", "4290", "5000", "bad0"].map { Self.notification($0) }, through: client)
            await client.close()
            #expect(outcomes == [.deadToken(reason: "Unregistered"), .retry(reason: "TooManyRequests", after: 120),
                                 .retry(reason: "InternalServerError", after: nil), .giveUp(reason: "BadDeviceToken")])
        }
    }

    @Test("a server closing the connection (GOAWAY) with streams unread: those go again on a new connection, each once",
          arguments: [false, true])
    func goAwayWithStreamsInFlight(tls: Bool) async throws {
        try await Self.withStandIn(tls: tls, delayMilliseconds: 600) { standIn in
            let client = try APNsClient(standIn.configuration())
            // The closing token goes first on the connection; the rest follow, once the server holds it,
            // while it waits for its answer.
            let closing = Task { await client.send(Self.notification("c105ed")).outcome }
            try await standIn.waitForArrival(ofTokenStartingWith: "c105ed")
            let rest = await Self.sendAll((0..<8).map { _ in Self.notification() }, through: client)
            let first = await closing.value
            await client.close()
            #expect(first == .delivered)
            #expect(rest.allSatisfy { $0 == .delivered }, "\(rest)")
            let records = standIn.records()
            #expect(records.count == 9, "each notification was answered once: \(records.count) answers")
            let closingConnection = records.first { ($0["token"] as? String)?.hasPrefix("c105ed") == true }?["connection"] as? Int
            #expect(records.filter { $0["connection"] as? Int != closingConnection }.count == 8,
                    "the streams the server had not answered went on a new connection")
        }
    }

    @Test("an answer slower than APNS_TIMEOUT_SECONDS times out, saying so")
    func slowAnswerTimesOut() async throws {
        try await Self.withStandIn(delayMilliseconds: 4000) { standIn in
            var configuration = standIn.configuration()
            configuration.timeout = .milliseconds(500)
            let client = try APNsClient(configuration)
            let started = ContinuousClock.now
            let (outcome, response) = await client.send(Self.notification())
            let elapsed = ContinuousClock.now - started
            await client.close()
            #expect(response == nil)
            let reason = Self.reason(outcome)
            #expect(reason.contains("did not answer in time") && reason.contains("no answer within 0.5 s (APNS_TIMEOUT_SECONDS)"), "\(reason)")
            #expect(elapsed < .seconds(3), "gave up after \(elapsed)")
        }
    }

    @Test("a refused connection names the endpoint's setting to check")
    func connectionRefused() async throws {
        let port = try APNsStandIn.closedPort()
        let client = try APNsClient(APNsConfiguration(
            teamID: APNsStandIn.teamID, keyID: APNsStandIn.keyID, privateKeyPEM: try APNsTests.makeKey(), topic: APNsStandIn.topic,
            sandboxURL: URL(string: "http://127.0.0.1:\(port)")!))
        let reason = Self.reason(await client.send(Self.notification(environment: .sandbox)).outcome)
        await client.close()
        #expect(reason.hasPrefix("cannot connect to http://127.0.0.1:\(port): "), "\(reason)")
        #expect(reason.contains("check APNS_SANDBOX_URL (sandbox notifications go there) and that the server is up"), "\(reason)")
    }

    @Test("TLS: a certificate for another host is refused, naming the host setting")
    func wrongHost() async throws {
        try await Self.withStandIn(tls: true, certificateHost: "api.push.apple.com") { standIn in
            // Trusted (it is its own CA), but it names api.push.apple.com, and the client dials localhost.
            let client = try APNsClient(standIn.configuration())
            let reason = Self.reason(await client.send(Self.notification()).outcome)
            await client.close()
            #expect(reason.contains("the TLS certificate of https://localhost:\(standIn.port) is for another host"), "\(reason)")
            #expect(reason.contains("check the host in APNS_PRODUCTION_URL"), "\(reason)")
            #expect(standIn.records().isEmpty, "nothing was sent to a server that could not prove who it is")
        }
    }

    @Test("an endpoint that answers in HTTP/1.x is named as not HTTP/2")
    func http1Endpoint() async throws {
        try await withTemporaryFolder { folder in
            // Python's own http.server: HTTP/1.0 only, it answers a POST with 501.
            let port = try APNsStandIn.closedPort()
            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            server.arguments = ["python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, String(port)]
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            defer { server.terminate() }
            var configuration = APNsConfiguration(teamID: APNsStandIn.teamID, keyID: APNsStandIn.keyID,
                                                  privateKeyPEM: try APNsTests.makeKey(), topic: APNsStandIn.topic,
                                                  productionURL: URL(string: "http://127.0.0.1:\(port)")!)
            configuration.timeout = .seconds(5)
            let client = try APNsClient(configuration)
            var reason = ""
            // python3 takes a moment to listen.
            for _ in 0..<50 {
                guard server.isRunning else {
                    Issue.record("python3 -m http.server exited with status \(server.terminationStatus): install python3 (scripts/packages --test)")
                    break
                }
                reason = Self.reason(await client.send(Self.notification()).outcome)
                if !reason.hasPrefix("cannot connect") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            await client.close()
            #expect(reason.contains("http://127.0.0.1:\(port) does not speak HTTP/2"), "\(reason)")
            #expect(reason.contains("APNS_PRODUCTION_URL must be an HTTP/2 endpoint"), "\(reason)")
        }
    }

    @Test("after close, a notification is not sent and says why")
    func closedClient() async throws {
        let client = try APNsClient(APNsConfiguration(teamID: "T", keyID: "K", privateKeyPEM: try APNsTests.makeKey(), topic: "t"))
        await client.close()
        let reason = Self.reason(await client.send(Self.notification()).outcome)
        #expect(reason.hasPrefix("the APNs client was closed"), "\(reason)")
    }
}
