/// The client side of one HTTP/2 connection (RFC 9113), one request at a time:
/// the preface and SETTINGS exchange, HEADERS (+ CONTINUATION) and DATA under
/// both flow-control windows, and everything the server may send meanwhile —
/// SETTINGS to acknowledge, PING to answer, WINDOW_UPDATE, GOAWAY, RST_STREAM.
///
/// Not thread-safe: its owner (`APNsClient`) uses it from one serial queue.
final class HTTP2ClientConnection {
    /// What we announce: no server push, the default header table, and a large
    /// receive window so responses never wait for our WINDOW_UPDATE.
    static let receiveWindow: UInt32 = 1 << 20
    static let defaultWindow = 65_535

    private let stream: ByteStream
    private let authority: String
    private let scheme: String
    private var input: [UInt8] = []
    private var decoder = HPACKDecoder()
    private var nextStreamID: UInt32 = 1
    private var peerMaxFrameSize = HTTP2Frame.defaultMaxFrameSize
    private var peerInitialWindow = HTTP2ClientConnection.defaultWindow
    private var connectionSendWindow = HTTP2ClientConnection.defaultWindow
    private var streamSendWindow = 0
    private var receivedSinceUpdate = 0
    /// Set once the server sent GOAWAY or the stream broke: no new requests.
    private(set) var closing: HTTP2Error?

    /// Opens the connection: preface, our SETTINGS, a connection window update,
    /// then waits for the server's SETTINGS (§3.4).
    init(stream: ByteStream, authority: String, scheme: String) throws {
        self.stream = stream
        self.authority = authority
        self.scheme = scheme
        try stream.write(HTTP2Frame.clientPreface
            + HTTP2Frame.settings([(.enablePush, 0), (.initialWindowSize, Self.receiveWindow),
                                   (.headerTableSize, UInt32(decoder.maximumTableSize))]).encoded
            + HTTP2Frame.windowUpdate(streamID: 0, increment: Self.receiveWindow - UInt32(Self.defaultWindow)).encoded)
        // A server that does not speak HTTP/2 answers the preface in HTTP/1.1.
        while input.count < HTTP2Frame.headerLength {
            guard try stream.read(into: &input, maximum: 16_384) > 0 else {
                throw HTTP2Error.connectionLost("the server closed the connection before its SETTINGS")
            }
        }
        if input.starts(with: Array("HTTP/1.".utf8)) {
            throw HTTP2Error.protocolViolation("the server answered in HTTP/1.1: the endpoint must speak HTTP/2 (APNs does)")
        }
        var sawSettings = false
        while !sawSettings {
            let frame = try readFrame()
            if frame.kind == .settings && !frame.has(HTTP2Frame.Flag.ack) { sawSettings = true }
            _ = try handleConnectionFrame(frame)
        }
    }

    var isUsable: Bool { closing == nil }

    func close() {
        if closing == nil {
            try? stream.write(HTTP2Frame.goAway(lastStreamID: 0, errorCode: 0).encoded)
            closing = .connectionLost("closed by us")
        }
        stream.close()
    }

    /// Reads whatever the server sent while the connection was idle (a GOAWAY,
    /// a PING, the end of the stream) so a dead connection is noticed before use.
    func absorbIdleInput() {
        do {
            // Frames already read along with the last response come first.
            while closing == nil, let frame = try HTTP2Frame.take(from: &input, maxFrameSize: HTTP2Frame.defaultMaxFrameSize) {
                _ = try handleConnectionFrame(frame)
            }
            while closing == nil && stream.hasPendingInput() {
                _ = try handleConnectionFrame(try readFrame())
            }
        } catch {
            closing = error as? HTTP2Error ?? .connectionLost("\(error)")
        }
    }

    /// Sends one request and waits for its whole response.
    func send(_ request: HTTP2Request) throws -> HTTP2Response {
        if let closing { throw closing }
        let id = nextStreamID
        nextStreamID += 2
        streamSendWindow = peerInitialWindow
        do {
            try writeHeaders(request, streamID: id, endStream: request.body.isEmpty)
            try writeBody(request.body, streamID: id)
            return try readResponse(streamID: id)
        } catch let error as HTTP2Error {
            switch error {
            // The stream failed, the connection did not (REFUSED_STREAM leaves it usable).
            case .streamReset: break
            case .requestNotProcessed where isUsable: break
            default: closing = closing ?? error
            }
            throw error
        }
    }

    private func writeHeaders(_ request: HTTP2Request, streamID: UInt32, endStream: Bool) throws {
        let fields = [(":method", request.method), (":scheme", scheme), (":authority", authority), (":path", request.path)]
            + request.headers.map { ($0.name, $0.value) }
        let block = HPACKEncoder.encode(fields)
        var frames: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(block.count, offset + peerMaxFrameSize)
            let last = end == block.count
            let flags = (last ? HTTP2Frame.Flag.endHeaders : 0) | (offset == 0 && endStream ? HTTP2Frame.Flag.endStream : 0)
            frames += HTTP2Frame(offset == 0 ? .headers : .continuation, flags: flags, streamID: streamID,
                                 payload: Array(block[offset..<end])).encoded
            offset = end
        } while offset < block.count
        try stream.write(frames)
    }

    private func writeBody(_ body: [UInt8], streamID: UInt32) throws {
        var offset = 0
        while offset < body.count {
            let allowed = min(connectionSendWindow, streamSendWindow, peerMaxFrameSize)
            guard allowed > 0 else {
                // Wait for the server to open a window.
                try handleStreamlessFrame(try readFrame(), activeStream: streamID)
                continue
            }
            let end = min(body.count, offset + allowed)
            try stream.write(HTTP2Frame(.data, flags: end == body.count ? HTTP2Frame.Flag.endStream : 0,
                                        streamID: streamID, payload: Array(body[offset..<end])).encoded)
            connectionSendWindow -= end - offset
            streamSendWindow -= end - offset
            offset = end
        }
    }

    private func readResponse(streamID: UInt32) throws -> HTTP2Response {
        var status: Int?
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []
        var headerBlock: [UInt8]?
        var blockEndsStream = false
        while true {
            let frame = try readFrame()
            if let pending = headerBlock {
                // Nothing may come between HEADERS and its CONTINUATION frames (§6.10).
                guard frame.kind == .continuation, frame.streamID == streamID else {
                    throw HTTP2Error.protocolViolation("a header block was interrupted by another frame")
                }
                headerBlock = pending + frame.payload
            } else if frame.streamID != streamID || !(frame.kind == .headers || frame.kind == .data || frame.kind == .resetStream) {
                try handleStreamlessFrame(frame, activeStream: streamID)
                continue
            }
            switch frame.kind {
            case .headers:
                headerBlock = Array(try frame.contentRemovingPadding())
                blockEndsStream = frame.has(HTTP2Frame.Flag.endStream)
            case .data:
                guard status != nil else { throw HTTP2Error.protocolViolation("DATA before the response's HEADERS") }
                body += try frame.contentRemovingPadding()
                try acknowledgeReceived(frame.payload.count, streamID: streamID, streamEnds: frame.has(HTTP2Frame.Flag.endStream))
                if frame.has(HTTP2Frame.Flag.endStream) { return HTTP2Response(status: status!, headers: headers, body: body) }
                continue
            case .resetStream:
                let code = frame.payload.count >= 4 ? HTTP2Frame.readUInt32(frame.payload, at: 0) : 0
                // REFUSED_STREAM: the server did nothing with it (§8.7).
                if code == 7 { throw HTTP2Error.requestNotProcessed("the server refused the stream (REFUSED_STREAM)") }
                throw HTTP2Error.streamReset(errorCode: code)
            default:
                break
            }
            guard frame.has(HTTP2Frame.Flag.endHeaders), let block = headerBlock else { continue }
            headerBlock = nil
            let fields = try decoder.decode(block)
            if status == nil {
                guard let text = fields.first(where: { $0.name == ":status" })?.value, let code = Int(text) else {
                    throw HTTP2Error.protocolViolation("a response without :status")
                }
                // 1xx responses are informational: the real one follows.
                if code >= 200 {
                    status = code
                    headers = fields.filter { !$0.name.hasPrefix(":") }
                }
            } else {
                headers += fields // trailers
            }
            if blockEndsStream {
                guard let status else { throw HTTP2Error.protocolViolation("the stream ended with an informational response") }
                return HTTP2Response(status: status, headers: headers, body: body)
            }
        }
    }

    /// Gives back what the server spent of our windows once half of one is used
    /// (the stream's window only while the stream is still open).
    private func acknowledgeReceived(_ count: Int, streamID: UInt32, streamEnds: Bool) throws {
        receivedSinceUpdate += count
        guard receivedSinceUpdate >= Int(Self.receiveWindow / 2) else { return }
        var frames = HTTP2Frame.windowUpdate(streamID: 0, increment: UInt32(receivedSinceUpdate)).encoded
        if !streamEnds { frames += HTTP2Frame.windowUpdate(streamID: streamID, increment: UInt32(receivedSinceUpdate)).encoded }
        receivedSinceUpdate = 0
        try stream.write(frames)
    }

    /// A frame that is not part of the active stream's response.
    private func handleStreamlessFrame(_ frame: HTTP2Frame, activeStream: UInt32) throws {
        if frame.kind == .windowUpdate && frame.streamID == activeStream {
            guard frame.payload.count == 4 else { throw HTTP2Error.protocolViolation("a WINDOW_UPDATE of the wrong size") }
            streamSendWindow += Int(HTTP2Frame.readUInt32(frame.payload, at: 0) & 0x7FFF_FFFF)
            return
        }
        if let goAway = try handleConnectionFrame(frame), case .goAway(let last, _, _) = goAway, last < activeStream {
            throw HTTP2Error.requestNotProcessed(goAway.description)
        }
    }

    /// Connection-level frames (stream 0) and frames for streams long finished.
    /// Answers the GOAWAY it saw, if any.
    private func handleConnectionFrame(_ frame: HTTP2Frame) throws -> HTTP2Error? {
        switch frame.kind {
        case .settings:
            guard frame.streamID == 0 else { throw HTTP2Error.protocolViolation("SETTINGS on a stream") }
            if frame.has(HTTP2Frame.Flag.ack) { return nil }
            guard frame.payload.count % 6 == 0 else { throw HTTP2Error.protocolViolation("a SETTINGS frame of the wrong size") }
            for offset in stride(from: 0, to: frame.payload.count, by: 6) {
                let identifier = UInt16(frame.payload[offset]) << 8 | UInt16(frame.payload[offset + 1])
                let value = HTTP2Frame.readUInt32(frame.payload, at: offset + 2)
                switch HTTP2Frame.Setting(rawValue: identifier) {
                case .maxFrameSize:
                    guard value >= 16_384 && value <= 16_777_215 else { throw HTTP2Error.protocolViolation("an invalid SETTINGS_MAX_FRAME_SIZE") }
                    peerMaxFrameSize = Int(value)
                case .initialWindowSize:
                    guard value <= 0x7FFF_FFFF else { throw HTTP2Error.protocolViolation("an invalid SETTINGS_INITIAL_WINDOW_SIZE") }
                    streamSendWindow += Int(value) - peerInitialWindow
                    peerInitialWindow = Int(value)
                default:
                    break // the rest constrain what we never do (push, many streams, big header lists)
                }
            }
            try stream.write(HTTP2Frame(.settings, flags: HTTP2Frame.Flag.ack).encoded)
        case .ping:
            guard frame.payload.count == 8 else { throw HTTP2Error.protocolViolation("a PING of the wrong size") }
            if !frame.has(HTTP2Frame.Flag.ack) {
                try stream.write(HTTP2Frame(.ping, flags: HTTP2Frame.Flag.ack, payload: frame.payload).encoded)
            }
        case .windowUpdate:
            guard frame.payload.count == 4 else { throw HTTP2Error.protocolViolation("a WINDOW_UPDATE of the wrong size") }
            if frame.streamID == 0 { connectionSendWindow += Int(HTTP2Frame.readUInt32(frame.payload, at: 0) & 0x7FFF_FFFF) }
        case .goAway:
            guard frame.payload.count >= 8 else { throw HTTP2Error.protocolViolation("a GOAWAY of the wrong size") }
            let error = HTTP2Error.goAway(lastStreamID: HTTP2Frame.readUInt32(frame.payload, at: 0) & 0x7FFF_FFFF,
                                          errorCode: HTTP2Frame.readUInt32(frame.payload, at: 4),
                                          debug: String(decoding: frame.payload.dropFirst(8), as: UTF8.self))
            closing = error
            return error
        case .pushPromise:
            throw HTTP2Error.protocolViolation("the server pushed although we turned push off")
        case .headers, .continuation:
            // A late header block on an old stream still feeds the shared HPACK table.
            if frame.kind == .headers { _ = try decoder.decode(Array(try frame.contentRemovingPadding())) }
        case .data:
            try acknowledgeReceived(frame.payload.count, streamID: frame.streamID, streamEnds: true)
        case .resetStream, .priority, nil:
            break
        }
        return nil
    }

    private func readFrame() throws -> HTTP2Frame {
        while true {
            if let frame = try HTTP2Frame.take(from: &input, maxFrameSize: HTTP2Frame.defaultMaxFrameSize) { return frame }
            if try stream.read(into: &input, maximum: 16_384 + HTTP2Frame.headerLength) == 0 {
                let error = HTTP2Error.connectionLost("the server closed the connection"
                    + (closing.map { " after \($0)" } ?? ""))
                closing = closing ?? error
                throw error
            }
        }
    }
}
