/// Reads client frames (RFC 6455 §5) from a byte stream, one state at a time.
///
/// Refuses what a server must: unmasked frames, reserved bits without an
/// extension, unknown opcodes, non-minimal lengths, 64-bit lengths with the top bit
/// set, control frames that are fragmented or longer than 125 bytes, and any frame
/// larger than the limit (1009). Errors carry the close code to send.
public struct WebSocketFrameParser: Sendable {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var code: WebSocketCloseCode
        public var message: String
        public var description: String { "\(code.rawValue): \(message)" }
    }

    enum State: Sendable {
        /// The two fixed bytes.
        case header
        /// The extended length: 2 or 8 bytes.
        case extendedLength(fin: Bool, opcode: WebSocketFrame.Opcode, bytes: Int)
        case maskKey(fin: Bool, opcode: WebSocketFrame.Opcode, length: Int)
        case payload(fin: Bool, opcode: WebSocketFrame.Opcode, length: Int, key: [UInt8])
        case failed
    }

    public let maxFramePayload: Int
    private(set) var state: State = .header

    public init(maxFramePayload: Int) {
        self.maxFramePayload = maxFramePayload
    }

    /// The next whole frame in `input`, consuming it; nil when more bytes are needed.
    mutating func next(from input: inout InputBuffer) throws(Failure) -> WebSocketFrame? {
        while true {
            switch state {
            case .failed:
                return nil
            case .header:
                guard input.count >= 2 else { return nil }
                let first = input[0], second = input[1]
                input.consume(2)
                guard first & 0x70 == 0 else { throw fail(.protocolError, "reserved bits are set but no extension was agreed") }
                guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
                    throw fail(.protocolError, "opcode \(first & 0x0F) is not defined")
                }
                let fin = first & 0x80 != 0
                guard second & 0x80 != 0 else { throw fail(.protocolError, "client frames must be masked") }
                let length = Int(second & 0x7F)
                if opcode.isControl {
                    guard fin else { throw fail(.protocolError, "control frames may not be fragmented") }
                    guard length <= 125 else { throw fail(.protocolError, "control frames carry at most 125 bytes") }
                }
                switch length {
                case 126: state = .extendedLength(fin: fin, opcode: opcode, bytes: 2)
                case 127: state = .extendedLength(fin: fin, opcode: opcode, bytes: 8)
                default: state = .maskKey(fin: fin, opcode: opcode, length: length)
                }
            case .extendedLength(let fin, let opcode, let count):
                guard input.count >= count else { return nil }
                var length: UInt64 = 0
                for byte in input.read(count) { length = length << 8 | UInt64(byte) }
                if count == 2 {
                    guard length >= 126 else { throw fail(.protocolError, "a length under 126 must use the 7-bit form") }
                } else {
                    guard length >> 63 == 0 else { throw fail(.protocolError, "the most significant bit of a 64-bit length must be 0") }
                    guard length > 0xFFFF else { throw fail(.protocolError, "a length under 65536 must use the 16-bit form") }
                }
                guard length <= UInt64(maxFramePayload) else {
                    throw fail(.messageTooBig, "frames carry at most \(maxFramePayload) bytes")
                }
                state = .maskKey(fin: fin, opcode: opcode, length: Int(length))
            case .maskKey(let fin, let opcode, let length):
                guard length <= maxFramePayload else {
                    throw fail(.messageTooBig, "frames carry at most \(maxFramePayload) bytes")
                }
                guard input.count >= 4 else { return nil }
                state = .payload(fin: fin, opcode: opcode, length: length, key: Array(input.read(4)))
            case .payload(let fin, let opcode, let length, let key):
                guard input.count >= length else { return nil }
                var payload = Array(input.read(length))
                for index in payload.indices { payload[index] ^= key[index & 3] }
                state = .header
                return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
            }
        }
    }

    private mutating func fail(_ code: WebSocketCloseCode, _ message: String) -> Failure {
        state = .failed
        return Failure(code: code, message: message)
    }
}
