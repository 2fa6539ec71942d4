import Foundation
import Gateway

/// A small application for testing the server alone: echo, slow answers, and
/// WebSocket sessions that echo, flood politely, or flood regardless.
struct TestResponder: HTTPResponder {
    /// Where `/held` requests wait until the test lets them answer.
    var gate = RequestGate()

    func bodyLimit(method: HTTPMethod, path: Substring) -> Int {
        path.hasPrefix("/big") ? 4 << 20 : 1024
    }

    func respond(to request: HTTPRequest) async -> HTTPReply {
        switch request.path ?? "" {
        case "/echo", "/big":
            var response = HTTPResponse(status: 200, headers: ["content-type": "application/octet-stream"], body: request.body)
            response.headers.set("x-method", request.method.rawValue)
            response.headers.set("x-target", request.target)
            return .response(response)
        case "/slow":
            try? await Task.sleep(for: .milliseconds(400))
            return .response(.text(200, "slow"))
        case "/held":
            await gate.hold()
            return .response(.text(200, "held"))
        case "/ws":
            if let problem = WebSocketHandshake.problem(with: request) { return .response(problem) }
            return .upgrade(WebSocketHandshake.response(to: request)) { socket in
                await Self.session(socket)
            }
        default:
            return .response(.text(404, "no such path"))
        }
    }

    /// Echoes text; `flood N` sends N 1 KiB messages waiting for room; `blast N` ignores room;
    /// `buffered` reports what waits to be written.
    static func session(_ socket: WebSocket) async {
        while let message = await socket.receive() {
            guard case .text(let text) = message else { continue }
            let words = text.split(separator: " ")
            switch words.first {
            case "flood":
                let count = Int(words[1]) ?? 0
                var peak = 0
                for index in 0..<count {
                    await socket.waitForRoom()
                    peak = max(peak, socket.bufferedBytes)
                    socket.send(text: "\(index) " + String(repeating: "x", count: 1024))
                }
                socket.send(text: "done peak=\(peak)")
            case "blast":
                let count = Int(words[1]) ?? 0
                for index in 0..<count where !socket.isClosed {
                    socket.send(text: "\(index) " + String(repeating: "y", count: 4096))
                }
            case "close":
                socket.close(.normal, reason: "asked to")
            default:
                socket.send(text: text)
            }
        }
    }
}

/// Requests that wait for the test: a test knows when one has arrived and
/// chooses when it answers, instead of guessing with timers.
actor RequestGate {
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrivalWatchers: [CheckedContinuation<Void, Never>] = []
    private var open = false

    func hold() async {
        arrived += 1
        arrivalWatchers.forEach { $0.resume() }
        arrivalWatchers = []
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func waitForArrival() async {
        if arrived > 0 { return }
        await withCheckedContinuation { arrivalWatchers.append($0) }
    }

    func release() {
        open = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}

/// A server with small limits and short timeouts, for the length of `body`.
func withTestServer<T>(
    configure: (inout ServerOptions) -> Void = { _ in },
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var options = ServerOptions()
    options.port = 0
    options.reusePort = false
    options.limits.maxHeadBytes = 4096
    options.limits.maxTargetBytes = 1024
    options.limits.maxHeaderCount = 20
    // Generous by default: tests run beside many others on few cores, where a test's task can wait
    // seconds for a thread. The timeout tests set their own.
    options.limits.headTimeout = .seconds(30)
    options.limits.bodyTimeout = .seconds(30)
    options.limits.idleTimeout = .seconds(30)
    options.maxWebSocketMessage = 64 * 1024
    options.webSocketIdleTimeout = .seconds(30)
    options.webSocketHighWater = 32 * 1024
    options.webSocketLowWater = 8 * 1024
    options.webSocketMaxBuffered = 256 * 1024
    options.drainTimeout = .seconds(3)
    configure(&options)
    let server = try HTTPServer(options: options, responder: TestResponder())
    try server.start()
    do {
        let value = try await body(server)
        await server.shutdown()
        return value
    } catch {
        await server.shutdown()
        throw error
    }
}
