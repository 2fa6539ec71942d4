import Foundation
import Postgres
import Relay

/// `summit serve`: one network front speaking the hosted platform's protocols —
/// auth, REST, realtime and storage — over one PostgreSQL, so the apps' own client
/// libraries can point at Summit.
///
///     let gateway = try await Gateway(database: configuration, configuration: gatewayConfiguration)
///     try gateway.start()             // listening on gateway.port
///     …
///     await gateway.shutdown()        // drain requests, close sockets with 1001
public final class Gateway: Sendable {
    public let server: HTTPServer
    let context: GatewayContext
    let realtime: RealtimeService
    private let stopping = Once()

    /// `functions`: edge functions served besides the gateway's own (`EdgeFunction`);
    /// `readDatabase`: a read pool (standbys) for lag-tolerant reads (`ReadRouting`);
    /// `resorts`: the admin site's resort pages (`AdminResortSource`).
    public init(database: PostgresConfiguration, readDatabase: PostgresConfiguration? = nil, configuration: GatewayConfiguration,
                functions: [EdgeFunction] = [], resorts: AdminResortSource? = nil,
                clock: @escaping @Sendable () -> Date = { Date() }) async throws {
        context = try GatewayContext(database: database, readDatabase: readDatabase, configuration: configuration, clock: clock)
        realtime = try await RealtimeService(context: context)
        let auth = AuthService(context: context), storage = StorageService(context: context)
        let responder = GatewayResponder(
            context: context, auth: auth, admin: AdminSite(context: context, auth: auth, storage: storage, resorts: resorts),
            rest: RestService(context: context), storage: storage, functions: FunctionsService(context: context, functions: functions),
            realtime: realtime)
        server = try HTTPServer(options: configuration.server, responder: responder)
    }

    /// Binds and starts serving. Throws when the address is taken or not allowed.
    public func start() throws {
        try server.start()
    }

    public var port: Int { server.port }

    /// Stops accepting, finishes requests in flight, closes WebSockets (1001), then
    /// releases the relay and the database connections.
    public func shutdown() async {
        guard stopping.claim() else { return }
        await server.shutdown()
        await realtime.close()
        await context.pool.close()
        await context.reads?.pool.close()
    }
}

/// Lets one caller through.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
