/// One HTTP/2 frame (RFC 9113 §4): a 9-byte header — 24-bit length, type, flags,
/// 31-bit stream id — and its payload.
struct HTTP2Frame: Equatable {
    enum Kind: UInt8 {
        case data = 0x0, headers = 0x1, priority = 0x2, resetStream = 0x3, settings = 0x4, pushPromise = 0x5
        case ping = 0x6, goAway = 0x7, windowUpdate = 0x8, continuation = 0x9
    }

    enum Flag {
        static let endStream: UInt8 = 0x1
        static let ack: UInt8 = 0x1
        static let endHeaders: UInt8 = 0x4
        static let padded: UInt8 = 0x8
        static let priority: UInt8 = 0x20
    }

    enum Setting: UInt16 {
        case headerTableSize = 0x1, enablePush = 0x2, maxConcurrentStreams = 0x3, initialWindowSize = 0x4
        case maxFrameSize = 0x5, maxHeaderListSize = 0x6
    }

    static let headerLength = 9
    /// What every HTTP/2 client sends first (§3.4).
    static let clientPreface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// The smallest maximum frame size a peer may announce, and the default.
    static let defaultMaxFrameSize = 16_384

    /// The raw type byte: frames of unknown types are read and ignored (§5.5).
    var type: UInt8
    var flags: UInt8
    var streamID: UInt32
    var payload: [UInt8]

    init(_ kind: Kind, flags: UInt8 = 0, streamID: UInt32 = 0, payload: [UInt8] = []) {
        self.type = kind.rawValue
        self.flags = flags
        self.streamID = streamID
        self.payload = payload
    }

    init(type: UInt8, flags: UInt8, streamID: UInt32, payload: [UInt8]) {
        self.type = type
        self.flags = flags
        self.streamID = streamID
        self.payload = payload
    }

    var kind: Kind? { Kind(rawValue: type) }
    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerLength + payload.count)
        let length = UInt32(payload.count)
        bytes += [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
        bytes += Self.bigEndian(streamID & 0x7FFF_FFFF)
        bytes += payload
        return bytes
    }

    /// Takes one whole frame off the front of `buffer`, or nil when more bytes are needed.
    static func take(from buffer: inout [UInt8], maxFrameSize: Int) throws -> HTTP2Frame? {
        guard buffer.count >= headerLength else { return nil }
        let length = Int(buffer[0]) << 16 | Int(buffer[1]) << 8 | Int(buffer[2])
        guard length <= maxFrameSize else {
            throw HTTP2Error.protocolViolation("a \(length)-byte frame exceeds the \(maxFrameSize)-byte limit we announced")
        }
        guard buffer.count >= headerLength + length else { return nil }
        let frame = HTTP2Frame(type: buffer[3], flags: buffer[4], streamID: readUInt32(buffer, at: 5) & 0x7FFF_FFFF,
                               payload: Array(buffer[headerLength..<headerLength + length]))
        buffer.removeFirst(headerLength + length)
        return frame
    }

    static func settings(_ values: [(Setting, UInt32)]) -> HTTP2Frame {
        HTTP2Frame(.settings, payload: values.flatMap { setting, value in
            [UInt8(setting.rawValue >> 8), UInt8(setting.rawValue & 0xFF)] + bigEndian(value)
        })
    }

    static func windowUpdate(streamID: UInt32, increment: UInt32) -> HTTP2Frame {
        HTTP2Frame(.windowUpdate, streamID: streamID, payload: bigEndian(increment & 0x7FFF_FFFF))
    }

    static func goAway(lastStreamID: UInt32, errorCode: UInt32) -> HTTP2Frame {
        HTTP2Frame(.goAway, payload: bigEndian(lastStreamID) + bigEndian(errorCode))
    }

    /// The payload of a HEADERS or DATA frame without its padding and priority fields.
    func contentRemovingPadding() throws -> ArraySlice<UInt8> {
        var start = 0
        var end = payload.count
        if has(Flag.padded) {
            guard let padLength = payload.first, Int(padLength) < payload.count else {
                throw HTTP2Error.protocolViolation("a padded frame's padding is longer than the frame")
            }
            start = 1
            end -= Int(padLength)
        }
        if kind == .headers && has(Flag.priority) { start += 5 }
        guard start <= end else { throw HTTP2Error.protocolViolation("a frame is too short for its flags") }
        return payload[start..<end]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// The names of RFC 9113 §7's error codes, for messages.
    static func errorName(_ code: UInt32) -> String {
        let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
                     "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR",
                     "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]
        return code < names.count ? names[Int(code)] : "0x" + String(code, radix: 16)
    }
}
