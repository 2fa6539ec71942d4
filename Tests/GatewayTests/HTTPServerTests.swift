import Foundation
import Gateway
import OwnThread
import Testing

/// The HTTP/1.1 server against real sockets: keep-alive, pipelining, chunked
/// bodies, limits, timeouts and shutdown.
@Suite(.ownThread) struct HTTPServerTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            for index in 0..<3 {
                await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
                let response = try await client.readResponse()
                #expect(response.status == 200, "request \(index)")
                #expect(response.text == "hello")
                #expect(response.headers["connection"] == "keep-alive")
            }
            #expect(await server.statistics.accepted == 1)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            await client.send("GET /echo?n=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?n=3 HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try await client.readResponse()
            let second = try await client.readResponse()
            let third = try await client.readResponse()
            #expect(first.headers["x-target"] == "/echo?n=1")
            #expect(second.text == "slow\n")
            #expect(third.headers["x-target"] == "/echo?n=3")
        }
    }

    @Test func chunkedBodiesArriveDecoded() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
            try await Task.sleep(for: .milliseconds(50))
            await client.send("lo\r\n6;ext=1\r\n world\r\n0\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "hello world")
            // With a trailer section, on the same connection.
            await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Sum: 1\r\n\r\n")
            let second = try await client.readResponse()
            #expect(second.text == "abc")
        }
    }

    @Test func expectContinueGetsOneHundredBeforeTheBody() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
            let interim = try await client.readResponse()
            #expect(interim.status == 100)
            await client.send("abc")
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "abc")
        }
    }

    /// Each malformed request gets its status and the connection closes.
    @Test(arguments: [
        ("GET / HTTP/1.1\nHost: x\n\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nBad\u{01}: y\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: a\u{7F}b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY", 400),
        ("BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n", 501),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nExpect: something\r\n\r\n", 417),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2048\r\n\r\n", 413),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n", 413),
        ("GET /\u{00}x HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ])
    func malformedRequestsAreRefused(request: String, status: Int) async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == status, "\(request.debugDescription)")
            #expect(response.headers["connection"] == "close")
            #expect((response.json as? [String: Any])?["message"] is String, "the body says what was wrong")
            #expect(await client.waitForClose(timeout: .seconds(3)))
        }
    }

    @Test func oversizedHeadsAndTargetsAreRefused() async throws {
        try await withTestServer { server in
            let long = try RawClient(port: server.port)
            await long.send("GET /" + String(repeating: "a", count: 5000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await long.readResponse().status == 414)

            let many = try RawClient(port: server.port)
            await many.send("GET / HTTP/1.1\r\nHost: x\r\n" + (0..<30).map { "X-\($0): y\r\n" }.joined() + "\r\n")
            #expect(try await many.readResponse().status == 431)

            let big = try RawClient(port: server.port)
            await big.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 5000) + "\r\n\r\n")
            #expect(try await big.readResponse().status == 431)

            // The server still serves everyone else.
            let fine = try RawClient(port: server.port)
            await fine.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await fine.readResponse().status == 200)
        }
    }

    @Test func slowlorisHeadsTimeOut() async throws {
        try await withTestServer(configure: { $0.limits.headTimeout = .milliseconds(600) }) { server in
            let client = try RawClient(port: server.port)
            let started = ContinuousClock.now
            await client.send("GET / HTTP/1.1\r\nHost: x\r\n")
            // Trickle a header byte at a time: each arrives in time, the head never ends.
            for byte in "X-Slow: aaaaaaaaaaaaaaa".utf8 {
                guard await client.send([byte]) else { break }
                try await Task.sleep(for: .milliseconds(100))
                if ContinuousClock.now - started > .seconds(2) { break }
            }
            let response = try await client.readResponse()
            #expect(response.status == 408)
            #expect(ContinuousClock.now - started < .seconds(25), "cut off at the head timeout, not at the server's 30 s defaults")
            #expect(await server.statistics.timedOut >= 1)
        }
    }

    @Test func slowBodiesTimeOut() async throws {
        try await withTestServer(configure: { $0.limits.bodyTimeout = .milliseconds(800) }) { server in
            let client = try RawClient(port: server.port)
            await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
            let response = try await client.readResponse()
            #expect(response.status == 408)
        }
    }

    @Test func idleKeptAliveConnectionsAreClosed() async throws {
        try await withTestServer(configure: { $0.limits.idleTimeout = .seconds(2) }) { server in
            let client = try RawClient(port: server.port)
            await client.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
            #expect(await client.waitForClose(timeout: .seconds(5)))
        }
    }

    @Test func connectionCloseAndHTTP10AreHonoured() async throws {
        try await withTestServer { server in
            let closing = try RawClient(port: server.port)
            await closing.send("GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try await closing.readResponse().headers["connection"] == "close")
            #expect(await closing.waitForClose(timeout: .seconds(2)))

            let old = try RawClient(port: server.port)
            await old.send("GET /echo HTTP/1.0\r\n\r\n")
            #expect(try await old.readResponse().status == 200)
            #expect(await old.waitForClose(timeout: .seconds(2)))
        }
    }

    @Test func headRequestsGetHeadersOnly() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            await client.send("HEAD /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /echo HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.readResponse(toHead: true)
            #expect(head.status == 404)
            #expect(head.headers["content-length"] == "13")
            // No body followed the HEAD answer: the next response starts right after it.
            let next = try await client.readResponse()
            #expect(next.status == 200)
            #expect(next.headers["x-method"] == "GET")
        }
    }

    @Test func largeBodiesOnRoutesThatAllowThem() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            let body = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            await client.send(Array("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.body == body)
        }
    }

    /// Several processes may listen on one port (SO_REUSEPORT); each serves what the kernel gives it.
    @Test func twoServersShareAPort() async throws {
        try await withTestServer(configure: { $0.reusePort = true }) { first in
            var options = ServerOptions()
            options.port = first.port
            options.reusePort = true
            let second = try HTTPServer(options: options, responder: TestResponder())
            try second.start()
            #expect(second.port == first.port)
            for _ in 0..<20 {
                let client = try RawClient(port: first.port)
                await client.send("GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(try await client.readResponse().status == 200)
            }
            let served = await first.statistics.requests + second.statistics.requests
            #expect(served == 20)
            await second.shutdown()
        }
    }

    @Test func shutdownFinishesRequestsInFlightAndRefusesNewOnes() async throws {
        var options = ServerOptions()
        options.port = 0
        options.reusePort = false
        options.drainTimeout = .seconds(10)
        let responder = TestResponder()
        let server = try HTTPServer(options: options, responder: responder)
        try server.start()
        let client = try RawClient(port: server.port)
        await client.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        await responder.gate.waitForArrival()
        let socket = try RawClient(port: server.port)
        #expect(try await socket.upgrade("/ws").status == 101)
        let shutdown = Task { await server.shutdown() }
        // The WebSocket's close frame shows the shutdown has begun; only then may the request answer.
        let close = try await socket.readFrame()
        #expect(close.opcode == .close)
        #expect(close.payload.prefix(2) == [0x03, 0xE9], "1001 going away")
        await responder.gate.release()
        let response = try await client.readResponse()
        #expect(response.status == 200, "the request in flight completes")
        #expect(response.headers["connection"] == "close")
        await shutdown.value
        #expect(throws: (any Error).self) { _ = try RawClient(port: server.port) }
    }
}
