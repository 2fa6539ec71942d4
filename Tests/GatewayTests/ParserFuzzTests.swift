import Foundation
@testable import Gateway
import Testing

/// The fuzz target for the HTTP and WebSocket frame parsers: seeded, with a fixed
/// budget (GATEWAY_FUZZ_ITERATIONS, default 1000 per family; GATEWAY_FUZZ_SEED to
/// replay one). Valid inputs must parse to exactly what was generated however the
/// bytes are split; mutated inputs must never trap, must fail only with the
/// statuses and close codes the server answers, and must be read the same way
/// whichever way the bytes arrive. Serialized and yielding: it is pure computation,
/// and must not hold the cooperative pool from tests that wait on sockets.
@Suite(.serialized) struct ParserFuzzTests {
    static let iterations = Int(ProcessInfo.processInfo.environment["GATEWAY_FUZZ_ITERATIONS"] ?? "") ?? 1000
    static let seed = UInt64(ProcessInfo.processInfo.environment["GATEWAY_FUZZ_SEED"] ?? "") ?? 0x5EED_CAFE

    static var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.maxHeadBytes = 2048
        limits.maxTargetBytes = 512
        limits.maxHeaderCount = 24
        return limits
    }

    static let bodyLimit = 4096

    // MARK: - HTTP

    /// What a parser made of a byte stream: requests, then how it ended.
    struct HTTPOutcome: Equatable {
        var requests: [String] = []
        var continues = 0
        var error: Int?
        var consumedAll = false
    }

    static func parseHTTP(_ bytes: [UInt8], pieces: [Int]) -> HTTPOutcome {
        var parser = HTTPRequestParser(limits: limits) { _, _ in bodyLimit }
        var input = InputBuffer()
        var outcome = HTTPOutcome()
        var offset = 0
        var cuts = pieces.makeIterator()
        feeding: while offset < bytes.count {
            let size = min(max(1, cuts.next() ?? bytes.count), bytes.count - offset)
            input.append(Array(bytes[offset..<(offset + size)]))
            offset += size
            while true {
                do {
                    guard let event = try parser.next(from: &input) else { break }
                    switch event {
                    case .continueExpected: outcome.continues += 1
                    case .request(let request): outcome.requests.append(describe(request))
                    }
                } catch {
                    outcome.error = error.status
                    break feeding
                }
            }
        }
        outcome.consumedAll = outcome.error == nil && input.isEmpty
        return outcome
    }

    static func describe(_ request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(request.target) 1.\(request.minorVersion) "
            + request.headers.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "|") + " #" + request.body.map(String.init).joined(separator: ",")
    }

    struct Generated {
        var bytes: [UInt8]
        var expected: String
    }

    /// A valid request, and what it must parse to.
    static func validRequest(_ random: inout SeededRandom) -> Generated {
        let method = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"][random.below(7)]
        let segments = (0..<random.below(4)).map { _ in random.token(1...8) }
        var target = "/" + segments.joined(separator: "/")
        if random.chance(0.5) { target += "?" + (0..<random.below(3)).map { _ in random.token(1...5) + "=" + random.token(0...6) + "%2C" }.joined(separator: "&") }
        var headers: [(String, String)] = [("Host", "example.test")]
        for _ in 0..<random.below(6) { headers.append(("X-" + random.token(1...10), random.visible(0...30))) }
        var body: [UInt8] = []
        var framing = ""
        let hasBody = random.chance(0.6)
        let chunked = hasBody && random.chance(0.3)
        if hasBody {
            body = (0..<random.below(600)).map { _ in UInt8(random.below(256)) }
            if chunked {
                framing = "Transfer-Encoding: chunked\r\n"
            } else {
                framing = "Content-Length: \(body.count)\r\n"
            }
        }
        var text = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += framing + "\r\n"
        var bytes = Array(text.utf8)
        if !chunked { bytes += body }
        if chunked {
            var rest = body[...]
            while !rest.isEmpty {
                let size = min(rest.count, 1 + random.below(200))
                let ext = random.chance(0.2) ? ";name=value" : ""
                bytes += Array((String(size, radix: 16) + ext + "\r\n").utf8) + rest.prefix(size) + [13, 10]
                rest = rest.dropFirst(size)
            }
            bytes += Array((random.chance(0.3) ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n").utf8)
        }
        var expectedHeaders = HTTPHeaders()
        for (name, value) in headers { expectedHeaders.add(name, value.trimmingCharacters(in: .whitespaces)) }
        if !framing.isEmpty {
            let line = framing.replacingOccurrences(of: "\r\n", with: "")
            let colon = line.firstIndex(of: ":")!
            expectedHeaders.add(String(line[..<colon]), String(line[line.index(colon, offsetBy: 2)...]))
        }
        let request = HTTPRequest(method: HTTPMethod(rawValue: method)!, target: target, headers: expectedHeaders, body: body)
        return Generated(bytes: bytes, expected: describe(request))
    }

    /// Breaks a request: flipped, inserted, deleted or repeated bytes, control characters, cut-offs.
    static func mutate(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(1 + random.below(4)) {
            guard !bytes.isEmpty else { break }
            let at = random.below(bytes.count)
            switch random.below(8) {
            case 0: bytes[at] ^= UInt8(1 << random.below(8))
            case 1: bytes.insert([0, 13, 10, 32, 58, 9, 0x7F, 0xFF][random.below(8)], at: at)
            case 2: bytes.remove(at: at)
            case 3: bytes = Array(bytes[..<at])
            case 4: bytes.insert(contentsOf: Array(repeating: bytes[at], count: random.below(3000)), at: at)
            case 5: bytes.insert(contentsOf: Array("\r\nContent-Length: 5\r\n".utf8), at: at)
            case 6: bytes.insert(contentsOf: Array("\r\nTransfer-Encoding: chunked\r\n".utf8), at: at)
            default: bytes.insert(contentsOf: Array("\r\n\r\n".utf8), at: at)
            }
        }
        return bytes
    }

    static func randomPieces(_ count: Int, _ random: inout SeededRandom) -> [Int] {
        switch random.below(3) {
        case 0: return [count]
        case 1: return Array(repeating: 1, count: count)
        default: return (0..<count).map { _ in 1 + random.below(64) }
        }
    }

    @Test func validRequestsParseExactlyHoweverTheyArrive() async {
        var random = SeededRandom(seed: Self.seed)
        for iteration in 0..<Self.iterations {
            // CPU-bound: let the cooperative pool's other work through now and then.
            if iteration % 50 == 0 { await Task.yield() }
            let generated = Self.validRequest(&random)
            let whole = Self.parseHTTP(generated.bytes, pieces: [generated.bytes.count])
            let split = Self.parseHTTP(generated.bytes, pieces: Self.randomPieces(generated.bytes.count, &random))
            // Two in a row (pipelining) read as two.
            let twice = Self.parseHTTP(generated.bytes + generated.bytes, pieces: Self.randomPieces(generated.bytes.count * 2, &random))
            let ok = whole.requests == [generated.expected] && whole.error == nil && whole.consumedAll && split == whole
                && twice.requests == [generated.expected, generated.expected]
            #expect(ok, "seed \(Self.seed) iteration \(iteration): expected \(generated.expected), whole \(whole), split \(split), twice \(twice)")
            if !ok { return }
        }
    }

    @Test func brokenRequestsFailCleanlyAndConsistently() async {
        var random = SeededRandom(seed: Self.seed &+ 1)
        let allowed: Set<Int> = [400, 413, 414, 417, 431, 501, 505]
        for iteration in 0..<Self.iterations {
            // CPU-bound: let the cooperative pool's other work through now and then.
            if iteration % 50 == 0 { await Task.yield() }
            let bytes = Self.mutate(Self.validRequest(&random).bytes, &random)
            let whole = Self.parseHTTP(bytes, pieces: [bytes.count])
            let bytewise = Self.parseHTTP(bytes, pieces: Array(repeating: 1, count: bytes.count))
            let chunks = Self.parseHTTP(bytes, pieces: Self.randomPieces(bytes.count, &random))
            let ok = whole == bytewise && whole == chunks && whole.error.map(allowed.contains) != false
            #expect(ok, "seed \(Self.seed &+ 1) iteration \(iteration): \(whole) / \(bytewise) / \(chunks)")
            if !ok { return }
        }
    }

    // MARK: - WebSocket frames

    struct FrameOutcome: Equatable {
        var messages: [WebSocketMessageAssembler.Message] = []
        var error: UInt16?
    }

    static func parseFrames(_ bytes: [UInt8], pieces: [Int]) -> FrameOutcome {
        var parser = WebSocketFrameParser(maxFramePayload: 8192)
        var assembler = WebSocketMessageAssembler(maxMessageBytes: 16384)
        var input = InputBuffer()
        var outcome = FrameOutcome()
        var offset = 0
        var cuts = pieces.makeIterator()
        feeding: while offset < bytes.count {
            let size = min(max(1, cuts.next() ?? bytes.count), bytes.count - offset)
            input.append(Array(bytes[offset..<(offset + size)]))
            offset += size
            while true {
                do {
                    guard let frame = try parser.next(from: &input) else { break }
                    if let message = try assembler.receive(frame) { outcome.messages.append(message) }
                } catch {
                    outcome.error = error.code.rawValue
                    break feeding
                }
            }
        }
        return outcome
    }

    /// A valid client stream: messages, some fragmented with control frames in between.
    static func validFrames(_ random: inout SeededRandom) -> ([UInt8], [WebSocketMessageAssembler.Message]) {
        var bytes: [UInt8] = []
        var expected: [WebSocketMessageAssembler.Message] = []
        func key() -> [UInt8] { (0..<4).map { _ in UInt8(random.below(256)) } }
        for _ in 0..<(1 + random.below(5)) {
            switch random.below(4) {
            case 0:
                let text = random.visible(0...300)
                bytes += WebSocketFrame(opcode: .text, payload: Array(text.utf8)).encodedMasked(key: key())
                expected.append(.text(text))
            case 1:
                let payload = (0..<random.below(70_000)).map { _ in UInt8(random.below(256)) }.prefix(8000)
                bytes += WebSocketFrame(opcode: .binary, payload: Array(payload)).encodedMasked(key: key())
                expected.append(.binary(Array(payload)))
            case 2:
                let ping = (0..<random.below(126)).map { _ in UInt8(random.below(256)) }
                bytes += WebSocketFrame(opcode: .ping, payload: ping).encodedMasked(key: key())
                expected.append(.ping(ping))
            default:
                let text = random.visible(2...200)
                let cut = text.index(text.startIndex, offsetBy: text.count / 2)
                bytes += WebSocketFrame(fin: false, opcode: .text, payload: Array(text[..<cut].utf8)).encodedMasked(key: key())
                bytes += WebSocketFrame(opcode: .pong, payload: [1]).encodedMasked(key: key())
                expected.append(.pong([1]))
                bytes += WebSocketFrame(fin: true, opcode: .continuation, payload: Array(text[cut...].utf8)).encodedMasked(key: key())
                expected.append(.text(text))
            }
        }
        return (bytes, expected)
    }

    @Test func validFrameStreamsParseExactlyHoweverTheyArrive() async {
        var random = SeededRandom(seed: Self.seed &+ 2)
        for iteration in 0..<Self.iterations {
            // CPU-bound: let the cooperative pool's other work through now and then.
            if iteration % 50 == 0 { await Task.yield() }
            let (bytes, expected) = Self.validFrames(&random)
            let whole = Self.parseFrames(bytes, pieces: [bytes.count])
            let ok = whole == FrameOutcome(messages: expected, error: nil)
                && Self.parseFrames(bytes, pieces: Self.randomPieces(bytes.count, &random)) == whole
            #expect(ok, "seed \(Self.seed &+ 2) iteration \(iteration): \(whole.error.map(String.init) ?? "no error")")
            if !ok { return }
        }
    }

    @Test func brokenFramesCloseWithProtocolCodesAndNeverTrap() async {
        var random = SeededRandom(seed: Self.seed &+ 3)
        for iteration in 0..<Self.iterations {
            // CPU-bound: let the cooperative pool's other work through now and then.
            if iteration % 50 == 0 { await Task.yield() }
            let bytes = Self.mutate(Self.validFrames(&random).0, &random)
            let whole = Self.parseFrames(bytes, pieces: [bytes.count])
            let chunks = Self.parseFrames(bytes, pieces: Self.randomPieces(bytes.count, &random))
            let ok = whole == chunks && whole.error.map { Set<UInt16>([1002, 1007, 1009]).contains($0) } != false
            #expect(ok, "seed \(Self.seed &+ 3) iteration \(iteration): \(whole.error.map(String.init) ?? "-") / \(chunks.error.map(String.init) ?? "-")")
            if !ok { return }
        }
    }
}

/// SplitMix64: small, fast, and the same sequence for the same seed everywhere.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < probability }

    mutating func token(_ length: ClosedRange<Int>) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<(length.lowerBound + below(length.count))).map { _ in alphabet[below(alphabet.count)] })
    }

    mutating func visible(_ length: ClosedRange<Int>) -> String {
        String((0..<(length.lowerBound + below(length.count))).map { _ in Character(Unicode.Scalar(UInt8(0x21 + below(94)))) })
    }
}
