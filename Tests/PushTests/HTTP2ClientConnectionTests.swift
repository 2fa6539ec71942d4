import Testing
@testable import Push

/// The client connection against a scripted server: what the server "sends" is
/// queued up front, and what the client writes is parsed back into frames.
struct HTTP2ClientConnectionTests {
    final class ScriptedStream: ByteStream {
        var incoming: [UInt8]
        var written: [UInt8] = []

        init(_ frames: [HTTP2Frame]) { incoming = frames.flatMap(\.encoded) }

        func write(_ bytes: [UInt8]) throws { written += bytes }
        func read(into buffer: inout [UInt8], maximum: Int) throws -> Int {
            let count = min(maximum, incoming.count)
            buffer += incoming.prefix(count)
            incoming.removeFirst(count)
            return count
        }
        func hasPendingInput() -> Bool { !incoming.isEmpty }
        func close() {}

        /// The client's frames after its preface.
        func writtenFrames() throws -> [HTTP2Frame] {
            #expect(Array(written.prefix(24)) == HTTP2Frame.clientPreface)
            var rest = Array(written.dropFirst(24))
            var frames: [HTTP2Frame] = []
            while let frame = try HTTP2Frame.take(from: &rest, maxFrameSize: 1 << 20) { frames.append(frame) }
            return frames
        }
    }

    static let request = HTTP2Request(method: "POST", path: "/3/device/abc", headers: [("apns-topic", "t")],
                                      body: Array("{\"aps\":{}}".utf8))
    /// RFC 7541 C.6.1: a Huffman-coded 302 response header block.
    static let huffmanResponse = HPACKTests.bytes("""
        4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718
        63c7 8f0b 97c8 e9ae 82ae 43d3
        """)

    @Test("acknowledges SETTINGS, answers PING, and reads a Huffman-coded response with its body")
    func request() throws {
        let ping: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let stream = ScriptedStream([
            HTTP2Frame.settings([(.maxConcurrentStreams, 100)]),
            HTTP2Frame(.ping, payload: ping),
            HTTP2Frame(.headers, flags: HTTP2Frame.Flag.endHeaders, streamID: 1, payload: Self.huffmanResponse),
            HTTP2Frame(.data, flags: HTTP2Frame.Flag.endStream, streamID: 1, payload: Array("{\"reason\":\"x\"}".utf8)),
        ])
        let connection = try HTTP2ClientConnection(stream: stream, authority: "api.push.apple.com", scheme: "https")
        let response = try connection.send(Self.request)
        #expect(response.status == 302)
        #expect(response.header("location") == "https://www.example.com")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"reason\":\"x\"}")
        #expect(connection.isUsable)

        let frames = try stream.writtenFrames()
        #expect(frames.first?.kind == .settings && frames.first?.has(HTTP2Frame.Flag.ack) == false, "our SETTINGS first")
        #expect(frames.contains { $0.kind == .settings && $0.has(HTTP2Frame.Flag.ack) }, "the server's SETTINGS acknowledged")
        #expect(frames.contains { $0.kind == .ping && $0.has(HTTP2Frame.Flag.ack) && $0.payload == ping }, "the PING answered")
        let headers = try #require(frames.first { $0.kind == .headers })
        #expect(headers.streamID == 1 && headers.has(HTTP2Frame.Flag.endHeaders) && !headers.has(HTTP2Frame.Flag.endStream))
        var decoder = HPACKDecoder()
        let fields = try decoder.decode(headers.payload).map { "\($0.name): \($0.value)" }
        #expect(fields == [":method: POST", ":scheme: https", ":authority: api.push.apple.com", ":path: /3/device/abc", "apns-topic: t"])
        let data = frames.filter { $0.kind == .data }
        #expect(data.count == 1 && data[0].payload == Self.request.body && data[0].has(HTTP2Frame.Flag.endStream))
    }

    @Test("a body larger than the stream's window waits for WINDOW_UPDATE")
    func flowControl() throws {
        let stream = ScriptedStream([
            HTTP2Frame.settings([(.initialWindowSize, 4)]),
            HTTP2Frame.windowUpdate(streamID: 1, increment: 100),
            HTTP2Frame(.headers, flags: HTTP2Frame.Flag.endHeaders | HTTP2Frame.Flag.endStream, streamID: 1, payload: [0x88]),
        ])
        let connection = try HTTP2ClientConnection(stream: stream, authority: "a", scheme: "http")
        #expect(try connection.send(Self.request).status == 200)
        #expect(try stream.writtenFrames().filter { $0.kind == .data }.map(\.payload.count) == [4, Self.request.body.count - 4])
    }

    @Test("GOAWAY below our stream means not processed: the connection is done, the request may go again")
    func goAway() throws {
        let stream = ScriptedStream([
            HTTP2Frame.settings([]),
            HTTP2Frame.goAway(lastStreamID: 0, errorCode: 0),
        ])
        let connection = try HTTP2ClientConnection(stream: stream, authority: "a", scheme: "http")
        #expect(throws: HTTP2Error.requestNotProcessed("the server is closing the connection (GOAWAY, error NO_ERROR, last stream 0)")) {
            try connection.send(Self.request)
        }
        #expect(!connection.isUsable)
    }

    @Test("a GOAWAY that arrived with the last response is noticed before the next request")
    func goAwayWhileIdle() throws {
        let stream = ScriptedStream([
            HTTP2Frame.settings([]),
            HTTP2Frame(.headers, flags: HTTP2Frame.Flag.endHeaders | HTTP2Frame.Flag.endStream, streamID: 1, payload: [0x88]),
            HTTP2Frame.goAway(lastStreamID: 1, errorCode: 0),
        ])
        let connection = try HTTP2ClientConnection(stream: stream, authority: "a", scheme: "http")
        #expect(try connection.send(Self.request).status == 200)
        connection.absorbIdleInput()
        #expect(!connection.isUsable)
    }

    @Test("an HTTP/1.1 server is named as such")
    func http1Server() {
        let stream = ScriptedStream([])
        stream.incoming = Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)
        #expect(throws: HTTP2Error.protocolViolation("the server answered in HTTP/1.1: the endpoint must speak HTTP/2 (APNs does)")) {
            try HTTP2ClientConnection(stream: stream, authority: "a", scheme: "http")
        }
    }

    @Test("RST_STREAM fails the request; the end of the stream fails the connection")
    func resets() throws {
        let reset = ScriptedStream([HTTP2Frame.settings([]), HTTP2Frame(.resetStream, streamID: 1, payload: [0, 0, 0, 2])])
        let first = try HTTP2ClientConnection(stream: reset, authority: "a", scheme: "http")
        #expect(throws: HTTP2Error.streamReset(errorCode: 2)) { try first.send(Self.request) }

        let closed = ScriptedStream([HTTP2Frame.settings([])])
        let second = try HTTP2ClientConnection(stream: closed, authority: "a", scheme: "http")
        #expect(throws: HTTP2Error.connectionLost("the server closed the connection")) { try second.send(Self.request) }
        #expect(!second.isUsable)
    }
}
