import Foundation
import Postgres
import Relay

/// `/realtime/v1/websocket`: the hosted platform's realtime protocol (Phoenix
/// channels) over the relay. One per process: one relay (one listening
/// connection), one hub for broadcast and presence, one feed for row changes, and a
/// heartbeat that keeps this process's presences alive in SQL while it runs.
final class RealtimeService: Sendable {
    let context: GatewayContext
    let relay: Relay
    let hub: TopicHub
    let feed: ChangeFeed
    let catalog: RealtimeCatalog
    /// This process, in presence rows and broadcast origins.
    let nodeID = UUID()
    private let counter = SessionCounter()
    private let beat: Task<Void, Never>

    /// How often this process says it is alive, and how long silence means it is gone.
    static let beatInterval: Duration = .seconds(5)
    static let staleAfter = "30 seconds"

    init(context: GatewayContext) async throws {
        self.context = context
        relay = try await Relay(context.database, options: Relay.Options(mailboxCapacity: 256, readerConnections: 2))
        hub = TopicHub(relay: relay, pool: context.pool)
        feed = ChangeFeed(relay: relay)
        catalog = RealtimeCatalog(pool: context.pool)
        let node = nodeID, pool = context.pool
        try await pool.withConnection { connection in
            _ = try await connection.query("select realtime.gateway_beat(\(node), \(Self.staleAfter)::interval)", as: .serviceRole)
        }
        beat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.beatInterval)
                guard !Task.isCancelled else { return }
                _ = try? await pool.withConnection { connection in
                    try await connection.query("select realtime.gateway_beat(\(node), \(Self.staleAfter)::interval)", as: .serviceRole)
                }
            }
        }
    }

    /// Checks the API key (query parameter `apikey`, as the realtime client sends it, or the
    /// header) and the serializer version, then hands the socket to a session.
    func upgrade(_ request: HTTPRequest) -> HTTPReply {
        if let problem = WebSocketHandshake.problem(with: request) { return .response(problem) }
        let query = request.queryItems ?? []
        let apiKey = query.first { $0.name == "apikey" }?.value ?? request.headers["apikey"]
        let caller: RequestCaller
        do {
            caller = RequestCaller(try context.credentials.key(apiKey))
        } catch {
            return .response(.json(401, object: ["message": error.message]))
        }
        let serializer: PhoenixMessage.Serializer
        switch query.first(where: { $0.name == "vsn" })?.value ?? "1.0.0" {
        case "1.0.0": serializer = .v1
        case "2.0.0": serializer = .v2
        case let other:
            return .response(.json(400, object: ["message": "serializer version \(other) is not supported: connect with vsn=1.0.0 or 2.0.0"]))
        }
        let id = counter.next()
        return .upgrade(WebSocketHandshake.response(to: request)) { [self] socket in
            let session = RealtimeSession(id: id, socket: socket, service: self, caller: caller, serializer: serializer)
            await session.run()
        }
    }

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        .json(404, object: ["message": "Summit's realtime is the WebSocket at /realtime/v1/websocket"])
    }

    /// Stops beating, takes this process's presences out (announcing the leaves), closes the relay.
    func close() async {
        beat.cancel()
        let node = nodeID
        _ = try? await context.pool.withConnection { connection in
            try await connection.query("select realtime.gateway_leave_node(\(node))", as: .serviceRole)
        }
        await relay.close()
    }
}

/// Numbers sockets within a process.
final class SessionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
