/// A bounded set of connections shared by many tasks.
///
/// A task leases a connection for the length of a closure, so its transaction
/// is its own. When every connection is busy, callers wait in order. A
/// connection that comes back broken, or still inside a transaction, is closed
/// rather than handed to the next caller.
public actor PostgresPool {
    public nonisolated let configuration: PostgresConfiguration
    public nonisolated let maxConnections: Int
    private let applicationName: String
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var closed = false
    /// How long a connection serves before it is closed on its return; nil: as long as it works.
    private let maxLifetime: Duration?
    private var openedAt: [ObjectIdentifier: ContinuousClock.Instant] = [:]

    /// `maxLifetime` renews connections now and then, so a pool over several hosts (a
    /// read pool on standbys) spreads out again after a host came back.
    public init(_ configuration: PostgresConfiguration, maxConnections: Int = 8, applicationName: String = "summit",
                maxLifetime: Duration? = nil) {
        precondition(maxConnections > 0, "a pool needs at least one connection")
        self.configuration = configuration
        self.maxConnections = maxConnections
        self.applicationName = applicationName
        self.maxLifetime = maxLifetime
    }

    /// Connections currently open (leased plus idle): never more than `maxConnections`.
    public var openConnections: Int { open }

    /// Runs `body` with a connection of its own.
    public func withConnection<T: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await lease()
        do {
            let value = try await body(connection)
            await giveBack(connection)
            return value
        } catch {
            await giveBack(connection)
            throw error
        }
    }

    /// One statement on any free connection.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        try await withConnection { try await $0.query(query) }
    }

    public func transaction<T: Sendable>(
        _ body: @Sendable (isolated PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection { try await $0.transaction(body) }
    }

    public func acting<T: Sendable>(
        as caller: Caller, _ body: @Sendable (isolated PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection { try await $0.acting(as: caller, body) }
    }

    /// Closes idle connections now and leased ones as they come back.
    public func close() async {
        closed = true
        let connections = idle
        idle.removeAll()
        for connection in connections { openedAt[ObjectIdentifier(connection)] = nil }
        open -= connections.count
        for connection in connections { await connection.close() }
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    private func lease() async throws -> PostgresConnection {
        while true {
            guard !closed else {
                throw PostgresError(code: .connectionDoesNotExist, message: "the connection pool is closed")
            }
            if let connection = idle.popLast() { return connection }
            if open < maxConnections {
                open += 1
                do {
                    let connection = try await PostgresConnection.connect(configuration, applicationName: applicationName)
                    if maxLifetime != nil { openedAt[ObjectIdentifier(connection)] = .now }
                    return connection
                } catch {
                    open -= 1
                    wakeOne()
                    throw error
                }
            }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    private func giveBack(_ connection: PostgresConnection) async {
        let isOpen = await connection.isOpen
        let reusable = isOpen ? await connection.isIdle : false
        if reusable && !closed && !hasLived(connection) {
            idle.append(connection)
        } else {
            open -= 1
            openedAt[ObjectIdentifier(connection)] = nil
            await connection.close()
        }
        wakeOne()
    }

    private func hasLived(_ connection: PostgresConnection) -> Bool {
        guard let maxLifetime, let opened = openedAt[ObjectIdentifier(connection)] else { return false }
        return ContinuousClock.now - opened >= maxLifetime
    }

    private func wakeOne() {
        if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
}
