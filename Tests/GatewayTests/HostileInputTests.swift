import Foundation
import Gateway
import Testing

/// Hostile input against the whole gateway: broken HTTP, oversized heads and
/// bodies, slowloris, bad WebSocket frames on the realtime socket, forged and
/// expired tokens on every service. Each gets its status; none crashes the server
/// or reaches data (the injection half is in RestTests.sqlInjectionGoesNowhere and
/// the parsers' fuzz target in ParserFuzzTests).
@Suite struct HostileInputTests {
    static func shortTimeouts(_ configuration: inout GatewayConfiguration) {
        configuration.server.limits.headTimeout = .milliseconds(700)
        configuration.server.limits.bodyTimeout = .milliseconds(900)
    }

    @Test func brokenHTTPGetsItsStatusAndTheServerCarriesOn() async throws {
        try await withGateway(configure: Self.shortTimeouts) { gateway in
            let cases: [(String, Int)] = [
                ("GET /rest/v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                ("GET /rest/v1/x HTTP/1.1\nHost: a\n\n", 400),
                ("POST /rest/v1/rpc/f HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999\r\n\r\n", 413),
                ("GET /" + String(repeating: "x", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
                ("GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X-A: b\r\n", count: 100) + "\r\n", 431),
                ("GET / HTTP/1.1\r\nHost: a\r\nCookie: " + String(repeating: "c", count: 17000) + "\r\n\r\n", 431),
                ("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n", 400),
                ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 501),
            ]
            for (request, status) in cases {
                let client = try RawClient(port: gateway.port)
                await client.send(request)
                let response = try await client.readResponse()
                #expect(response.status == status, "\(request.prefix(60).debugDescription)")
            }
            // A body over the JSON limit, sent for real.
            let big = try await gateway.http("POST", "/rest/v1/rpc/my_profile", headers: ["Content-Type": "application/json"],
                                             body: Array(repeating: UInt8(ascii: " "), count: (1 << 20) + 10))
            #expect(big.status == 413)
            // Slowloris: a head that never ends is cut off at the head timeout.
            let slow = try RawClient(port: gateway.port)
            await slow.send("GET /health HTTP/1.1\r\nHost: a\r\nX-Slow: ")
            for _ in 0..<8 {
                guard await slow.send("z") else { break }
                try await Task.sleep(for: .milliseconds(150))
            }
            #expect(try await slow.readResponse().status == 408)
            // A body that never finishes, likewise.
            let stalled = try RawClient(port: gateway.port)
            await stalled.send("POST /rest/v1/rpc/f HTTP/1.1\r\nHost: a\r\nContent-Length: 50\r\n\r\n{\"a\":")
            #expect(try await stalled.readResponse().status == 408)
            // Still serving.
            #expect(try await gateway.http("GET", "/health").status == 200)
            let statistics = await gateway.gateway.server.statistics
            #expect(statistics.rejected >= cases.count)
            #expect(statistics.timedOut >= 2)
        }
    }

    @Test func badFramesOnTheRealtimeSocketCloseIt() async throws {
        try await withGateway { gateway in
            let path = "/realtime/v1/websocket?apikey=\(gateway.anonKey)&vsn=1.0.0"
            let unmasked = try RawClient(port: gateway.port)
            #expect(try await unmasked.upgrade(path).status == 101)
            await unmasked.send([0x81, 0x05] + Array("hello".utf8))
            #expect(try await unmasked.readFrame().payload.prefix(2) == [0x03, 0xEA])

            let garbage = try RawClient(port: gateway.port)
            _ = try await garbage.upgrade(path)
            await garbage.sendText("this is not a phoenix message")
            #expect(try await garbage.readFrame().payload.prefix(2) == [0x03, 0xEB], "1003: not Phoenix JSON")

            let huge = try RawClient(port: gateway.port)
            _ = try await huge.upgrade(path)
            await huge.send([0x81, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3, 4])
            #expect(try await huge.readFrame().payload.prefix(2) == [0x03, 0xF1], "1009: larger than a message may be")

            let fragmentedPing = try RawClient(port: gateway.port)
            _ = try await fragmentedPing.upgrade(path)
            await fragmentedPing.send(WebSocketFrame(fin: false, opcode: .ping, payload: [1]).encodedMasked(key: [9, 9, 9, 9]))
            #expect(try await fragmentedPing.readFrame().payload.prefix(2) == [0x03, 0xEA])

            // The server still upgrades and answers others.
            let fine = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let ref = await fine.push("phoenix", "heartbeat")
            _ = try await fine.next { $0["ref"] as? String == ref }
        }
    }

    @Test func forgedAndExpiredTokensAreRefusedEverywhere() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let claims = try #require(String(ann.accessToken.split(separator: ".")[1]).base64URLDecodedJSON())
            let forged = JWT.sign(claims: claims, secret: Array("an attacker's guess at the secret!".utf8))
            var service = claims
            service["role"] = "service_role"
            let escalated = JWT.sign(claims: service, secret: Array("an attacker's guess at the secret!".utf8))
            let none = "eyJhbGciOiJub25lIn0." + ann.accessToken.split(separator: ".")[1] + "."
            for token in [forged, escalated, none, "not.a.jwt", String(repeating: "a", count: 9000)] {
                let rest = try await gateway.http("GET", "/rest/v1/profiles", token: token, headers: ["Accept-Profile": "social"])
                #expect(rest.status == 401)
                #expect((rest.json as? [String: Any])?["code"] as? String == "PGRST301")
                #expect(try await gateway.http("GET", "/storage/v1/object/avatars/\(ann.id.uuidString.lowercased())/x.webp", token: token).status == 403)
                #expect(try await gateway.http("GET", "/auth/v1/user", token: token).status == 403)
            }
            // The service role key is not a user's token, and an API key nobody issued is refused.
            #expect(try await gateway.http("GET", "/rest/v1/profiles", apikey: escalated, headers: ["Accept-Profile": "social"]).status == 401)
            gateway.clock.advance(3601)
            let expired = try await gateway.http("GET", "/rest/v1/profiles", token: ann.accessToken, headers: ["Accept-Profile": "social"])
            #expect(expired.status == 401)
            #expect((expired.json as? [String: Any])?["code"] as? String == "PGRST303")
        }
    }
}
