import Testing
@testable import Push

struct HTTP2FrameTests {
    @Test("frames round-trip through their 9-byte header, whole or arriving in pieces")
    func roundTrip() throws {
        let frames = [
            HTTP2Frame(.headers, flags: HTTP2Frame.Flag.endHeaders, streamID: 1, payload: [1, 2, 3]),
            HTTP2Frame.settings([(.enablePush, 0), (.initialWindowSize, 1 << 20)]),
            HTTP2Frame.windowUpdate(streamID: 3, increment: 65_535),
            HTTP2Frame(type: 0xEE, flags: 0, streamID: 0, payload: [9]),
        ]
        var buffer: [UInt8] = []
        var decoded: [HTTP2Frame] = []
        for byte in frames.flatMap(\.encoded) {
            buffer.append(byte)
            if let frame = try HTTP2Frame.take(from: &buffer, maxFrameSize: 16_384) { decoded.append(frame) }
        }
        #expect(decoded == frames)
        #expect(buffer.isEmpty)
        #expect(decoded[3].kind == nil, "an unknown frame type is kept, to be ignored")
    }

    @Test("a frame over the size we announced is a protocol error")
    func oversizedFrame() {
        var buffer: [UInt8] = [0x00, 0x40, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]
        #expect(throws: HTTP2Error.self) { try HTTP2Frame.take(from: &buffer, maxFrameSize: 16_384) }
    }

    @Test("padding and priority fields are stripped from HEADERS and DATA")
    func padding() throws {
        let headers = HTTP2Frame(.headers, flags: HTTP2Frame.Flag.padded | HTTP2Frame.Flag.priority, streamID: 1,
                                 payload: [2, 0, 0, 0, 0, 16, 0xAA, 0xBB, 0, 0])
        #expect(Array(try headers.contentRemovingPadding()) == [0xAA, 0xBB])
        let broken = HTTP2Frame(.data, flags: HTTP2Frame.Flag.padded, streamID: 1, payload: [5, 1])
        #expect(throws: HTTP2Error.self) { try broken.contentRemovingPadding() }
    }
}
