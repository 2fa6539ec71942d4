/// One RFC 6455 frame, its payload already unmasked.
public struct WebSocketFrame: Sendable, Equatable {
    public enum Opcode: UInt8, Sendable {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    public var fin: Bool
    public var opcode: Opcode
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: Opcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The frame as a server sends it: never masked.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 10)
        bytes.append((fin ? 0x80 : 0) | opcode.rawValue)
        appendLength(payload.count, masked: false, to: &bytes)
        bytes += payload
        return bytes
    }

    /// The frame as a client sends it: masked with `key` (tests and the benchmark speak as clients).
    public func encodedMasked(key: [UInt8]) -> [UInt8] {
        precondition(key.count == 4)
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        appendLength(payload.count, masked: true, to: &bytes)
        bytes += key
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ key[index & 3]) }
        return bytes
    }

    private func appendLength(_ count: Int, masked: Bool, to bytes: inout [UInt8]) {
        let maskBit: UInt8 = masked ? 0x80 : 0
        if count < 126 {
            bytes.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes += [UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF)) }
        }
    }

    /// A close frame with `code` and a reason cut to fit a control frame.
    public static func close(_ code: WebSocketCloseCode, reason: String = "") -> WebSocketFrame {
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var reasonBytes = Array(reason.utf8.prefix(123))
        while String(validating: reasonBytes, as: UTF8.self) == nil { reasonBytes.removeLast() }
        payload += reasonBytes
        return WebSocketFrame(opcode: .close, payload: payload)
    }
}

/// Close codes the server sends (RFC 6455 §7.4.1).
public enum WebSocketCloseCode: UInt16, Sendable {
    case normal = 1000
    case goingAway = 1001
    case protocolError = 1002
    case unsupportedData = 1003
    case invalidPayload = 1007
    case policyViolation = 1008
    case messageTooBig = 1009
    case internalError = 1011
    case tryAgainLater = 1013
}
