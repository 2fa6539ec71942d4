/// Turns frames into messages: joins fragments, checks UTF-8, and reads close frames.
///
/// States: `idle` between messages, `fragmented` while a text or binary message
/// arrives in pieces (control frames may come in between), `closed` after a close
/// frame. Anything out of order is a protocol error with its close code.
public struct WebSocketMessageAssembler: Sendable {
    public enum Message: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        /// The peer's close: its code (nil when it sent none) and reason.
        case close(code: UInt16?, reason: String)
    }

    enum State: Sendable {
        case idle
        case fragmented(opcode: WebSocketFrame.Opcode, collected: [UInt8])
        case closed
    }

    public let maxMessageBytes: Int
    private(set) var state: State = .idle

    public init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// The message `frame` completes, if any.
    public mutating func receive(_ frame: WebSocketFrame) throws(WebSocketFrameParser.Failure) -> Message? {
        switch state {
        case .closed:
            return nil
        case .idle, .fragmented:
            break
        }
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            state = .closed
            return try Self.close(frame.payload)
        case .text, .binary:
            if case .fragmented = state {
                throw .init(code: .protocolError, message: "a new message began before the fragmented one ended")
            }
            if frame.fin { return try Self.message(frame.opcode, frame.payload) }
            try checkSize(frame.payload.count)
            state = .fragmented(opcode: frame.opcode, collected: frame.payload)
            return nil
        case .continuation:
            guard case .fragmented(let opcode, var collected) = state else {
                throw .init(code: .protocolError, message: "a continuation frame came with no message to continue")
            }
            try checkSize(collected.count + frame.payload.count)
            collected += frame.payload
            if frame.fin {
                state = .idle
                return try Self.message(opcode, collected)
            }
            state = .fragmented(opcode: opcode, collected: collected)
            return nil
        }
    }

    private func checkSize(_ count: Int) throws(WebSocketFrameParser.Failure) {
        guard count <= maxMessageBytes else {
            throw .init(code: .messageTooBig, message: "messages carry at most \(maxMessageBytes) bytes")
        }
    }

    private static func message(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) throws(WebSocketFrameParser.Failure) -> Message {
        guard opcode == .text else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw .init(code: .invalidPayload, message: "a text message is not valid UTF-8")
        }
        return .text(text)
    }

    private static func close(_ payload: [UInt8]) throws(WebSocketFrameParser.Failure) -> Message {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else {
            throw .init(code: .protocolError, message: "a close frame's body must hold a 2-byte code")
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        let valid = (1000...1003).contains(code) || (1007...1011).contains(code) || (3000...4999).contains(code)
        guard valid else { throw .init(code: .protocolError, message: "close code \(code) may not be sent") }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw .init(code: .invalidPayload, message: "a close reason is not valid UTF-8")
        }
        return .close(code: code, reason: reason)
    }
}
