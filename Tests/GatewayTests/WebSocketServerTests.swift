import Foundation
import Gateway
import OwnThread
import Testing

/// RFC 6455 on real sockets: handshake, echo, control frames, protocol errors, back-pressure.
@Suite(.ownThread) struct WebSocketServerTests {
    static var badFrames: [([UInt8], UInt16)] {
        var cases: [([UInt8], UInt16)] = []
        // Unmasked text frame.
        cases.append(([0x81, 0x02, 0x68, 0x69], 1002))
        // Reserved bit set.
        cases.append((WebSocketFrame(opcode: .text, payload: [0x41]).masked().withFirstByte { $0 | 0x40 }, 1002))
        // Opcode 3 is not defined.
        cases.append((WebSocketFrame(opcode: .text, payload: [0x41]).masked().withFirstByte { ($0 & 0xF0) | 0x3 }, 1002))
        // A fragmented ping.
        cases.append((WebSocketFrame(fin: false, opcode: .ping, payload: [1]).masked(), 1002))
        // A ping longer than 125 bytes (16-bit length form).
        cases.append((WebSocketFrame(opcode: .ping, payload: [UInt8](repeating: 7, count: 130)).masked(), 1002))
        // A continuation with nothing to continue.
        cases.append((WebSocketFrame(opcode: .continuation, payload: [1]).masked(), 1002))
        // A text frame that is not UTF-8.
        cases.append((WebSocketFrame(opcode: .text, payload: [0xC3, 0x28]).masked(), 1007))
        // Larger than the 64 KiB limit, announced in the 64-bit form.
        cases.append(([0x82, 0xFF, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4], 1009))
        // A 64-bit length with the top bit set.
        cases.append(([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4], 1002))
        // A 16-bit length used for 5 bytes.
        cases.append(([0x82, 0xFE, 0, 5, 1, 2, 3, 4, 1, 2, 3, 4, 5], 1002))
        // A close frame whose body is one byte.
        cases.append((WebSocketFrame(opcode: .close, payload: [3]).masked(), 1002))
        // A close code nobody may send.
        cases.append((WebSocketFrame(opcode: .close, payload: [0x03, 0xED]).masked(), 1002))
        return cases
    }

    @Test func handshakeAndEcho() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            let response = try await client.upgrade("/ws")
            #expect(response.status == 101)
            // The RFC's own example key and answer.
            #expect(response.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
            await client.sendText("hello")
            let frame = try await client.readFrame()
            #expect(frame.opcode == .text)
            #expect(String(decoding: frame.payload, as: UTF8.self) == "hello")
        }
    }

    @Test func badHandshakesAreRefused() async throws {
        try await withTestServer { server in
            let plain = try RawClient(port: server.port)
            await plain.send("GET /ws HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await plain.readResponse().status == 426)
            let version = try RawClient(port: server.port)
            #expect(try await version.upgrade("/ws", headers: ["Sec-WebSocket-Version": "8"]).status != 101)
        }
    }

    @Test func fragmentsAreJoinedAndPingsAnswered() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            _ = try await client.upgrade("/ws")
            await client.sendFrame(WebSocketFrame(fin: false, opcode: .text, payload: Array("frag".utf8)))
            await client.sendFrame(WebSocketFrame(opcode: .ping, payload: [1, 2, 3]))
            await client.sendFrame(WebSocketFrame(fin: true, opcode: .continuation, payload: Array("ment".utf8)))
            let pong = try await client.readFrame()
            #expect(pong.opcode == .pong)
            #expect(pong.payload == [1, 2, 3])
            let text = try await client.readFrame()
            #expect(String(decoding: text.payload, as: UTF8.self) == "fragment")
        }
    }

    @Test func closeHandshakeIsEchoed() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            _ = try await client.upgrade("/ws")
            await client.sendFrame(.close(.normal, reason: "bye"))
            let close = try await client.readFrame()
            #expect(close.opcode == .close)
            #expect(close.payload.prefix(2) == [0x03, 0xE8])
            #expect(await client.waitForClose(timeout: .seconds(3)))
        }
    }

    /// Each bad frame closes the connection with its code.
    @Test(arguments: WebSocketServerTests.badFrames)
    func badFramesCloseWithTheirCode(bytes: [UInt8], code: UInt16) async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            _ = try await client.upgrade("/ws")
            await client.send(bytes)
            let close = try await client.readFrame()
            #expect(close.opcode == .close)
            #expect(UInt16(close.payload[0]) << 8 | UInt16(close.payload[1]) == code)
            #expect(await client.waitForClose(timeout: .seconds(3)))
        }
    }

    @Test func aNewMessageInsideAFragmentedOneIsAnError() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            _ = try await client.upgrade("/ws")
            await client.sendFrame(WebSocketFrame(fin: false, opcode: .text, payload: [0x61]))
            await client.sendFrame(WebSocketFrame(fin: true, opcode: .text, payload: [0x62]))
            let close = try await client.readFrame()
            #expect(close.payload.prefix(2) == [0x03, 0xEA])
        }
    }

    @Test func silentSocketsAreClosed() async throws {
        try await withTestServer(configure: { $0.webSocketIdleTimeout = .seconds(3) }) { server in
            let client = try RawClient(port: server.port)
            _ = try await client.upgrade("/ws")
            let close = try await client.readFrame(timeout: .seconds(20))
            #expect(close.opcode == .close)
            #expect(close.payload.prefix(2) == [0x03, 0xF0], "1008 after the idle timeout")
        }
    }

    /// A session that waits for room never holds more than the high-water mark for a
    /// reader that is not reading, and everything arrives once it reads.
    @Test func politeSendersAreHeldBackBySlowReaders() async throws {
        try await withTestServer { server in
            let client = try RawClient(port: server.port)
            _ = try await client.upgrade("/ws")
            await client.sendText("flood 2000")
            try await Task.sleep(for: .milliseconds(500))
            var received = 0
            var last = ""
            while true {
                let frame = try await client.readFrame()
                let text = String(decoding: frame.payload, as: UTF8.self)
                if text.hasPrefix("done") {
                    last = text
                    break
                }
                #expect(text.hasPrefix("\(received) "), "in order, none lost")
                received += 1
            }
            #expect(received == 2000)
            let peak = Int(last.split(separator: "=")[1])!
            #expect(peak < 32 * 1024 + 2048, "the session never queued past the high-water mark (peak \(peak))")
        }
    }

    /// A sender that ignores back-pressure on a reader that does not read gets that
    /// reader disconnected (1008) once its buffer passes the limit; others are unaffected.
    @Test func readersThatFallTooFarBehindAreDisconnected() async throws {
        try await withTestServer { server in
            let slow = try RawClient(port: server.port)
            _ = try await slow.upgrade("/ws")
            let other = try RawClient(port: server.port)
            _ = try await other.upgrade("/ws")
            await slow.sendText("blast 5000")
            // However busy the machine, the blast outgrows the limit: wait for the disconnect.
            let deadline = ContinuousClock.now + .seconds(30)
            while await server.statistics.slowClosed == 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(await server.statistics.slowClosed == 1)
            await other.sendText("still here")
            let echo = try await other.readFrame()
            #expect(String(decoding: echo.payload, as: UTF8.self) == "still here")
            // What reaches the slow reader ends with a 1008 close frame.
            var sawClose = false
            while let frame = try? await slow.readFrame(timeout: .seconds(3)) {
                if frame.opcode == .close {
                    #expect(frame.payload.prefix(2) == [0x03, 0xF0])
                    sawClose = true
                    break
                }
            }
            #expect(sawClose)
        }
    }
}

extension WebSocketFrame {
    func masked() -> [UInt8] { encodedMasked(key: [1, 2, 3, 4]) }
}

extension Array where Element == UInt8 {
    func withFirstByte(_ change: (UInt8) -> UInt8) -> [UInt8] {
        var copy = self
        copy[0] = change(copy[0])
        return copy
    }
}
