import CLibPQ
import Foundation

/// One notification from `NOTIFY` / `pg_notify`.
public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The backend process that sent it (`pg_backend_pid()` of the sender).
    public let senderPID: Int32

    public init(channel: String, payload: String, senderPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}

/// What a listener delivers: notifications, and word that some may have been missed.
public enum PostgresListenerEvent: Sendable, Equatable {
    case notification(PostgresNotification)
    /// The connection dropped and is back, listening again on every channel.
    /// Notifications sent while it was down are lost: re-read whatever state matters.
    case reconnected(reason: String)
}

/// A dedicated connection that LISTENs and turns notifications into an `AsyncSequence`.
///
/// It runs on its own thread, waiting on the socket with `poll`, so it costs no
/// time on Swift's cooperative pool while idle. When the connection drops (server
/// restart, `pg_terminate_backend`, network), it reconnects with backoff,
/// re-LISTENs every channel, then emits `.reconnected`.
public final class PostgresListener: Sendable {
    /// The events in the order they happened, grouped by the socket read that
    /// brought them: a consumer that handles a group at once pays one wake-up per
    /// read instead of one per notification. Iterate this or `events`, not both.
    public let batches: AsyncStream<[PostgresListenerEvent]>
    private let state: ListenerLoop

    /// The events one at a time.
    public var events: Unbatched<AsyncStream<[PostgresListenerEvent]>, PostgresListenerEvent> { Unbatched(batches) }

    /// Connects, LISTENs on `channels`, and starts delivering. Throws if the first
    /// connection fails; later failures are retried forever until `close()`.
    public init(
        _ configuration: PostgresConfiguration, channels: [String] = [],
        heartbeat: Duration = .seconds(30)
    ) async throws {
        for channel in channels { try Self.validate(channel) }
        let (stream, continuation) = AsyncStream<[PostgresListenerEvent]>.makeStream(bufferingPolicy: .unbounded)
        batches = stream
        state = ListenerLoop(configuration: configuration, channels: Set(channels),
                             continuation: continuation, heartbeat: heartbeat)
        try await state.start()
    }

    deinit { state.stop() }

    /// Starts listening on `channel` (no-op when already listening). Returns once the server confirmed.
    public func listen(_ channel: String) async throws {
        try Self.validate(channel)
        try await state.submit(.listen(channel))
    }

    /// Stops listening on `channel` (no-op when not listening).
    public func unlisten(_ channel: String) async throws {
        try Self.validate(channel)
        try await state.submit(.unlisten(channel))
    }

    /// The channels currently listened to.
    public var channels: Set<String> { state.currentChannels }

    /// Closes the connection and finishes `events`.
    public func close() { state.stop() }

    /// Channel names are identifiers: longer than 63 bytes, the server would silently truncate them.
    static func validate(_ channel: String) throws {
        guard !channel.isEmpty, channel.utf8.count <= 63, !channel.utf8.contains(0) else {
            throw PostgresError.client(
                "channel name \"\(channel)\" must be 1 to 63 bytes with no NUL (PostgreSQL truncates longer names)")
        }
    }
}

/// The listener's thread and everything it owns. Commands reach the thread
/// through a locked queue and a wake-up pipe.
final class ListenerLoop: @unchecked Sendable {
    enum Command {
        case listen(String)
        case unlisten(String)
    }

    private let configuration: PostgresConfiguration
    private let continuation: AsyncStream<[PostgresListenerEvent]>.Continuation
    private let heartbeat: Duration
    private let lock = NSLock()
    // Guarded by `lock`:
    private var pending: [(Command, CheckedContinuation<Void, any Error>)] = []
    private var channels: Set<String>
    private var stopped = false
    private var started: CheckedContinuation<Void, any Error>?
    // Owned by the thread:
    private var handle: OpaquePointer?
    private let wake: (read: Int32, write: Int32)

    init(configuration: PostgresConfiguration, channels: Set<String>,
         continuation: AsyncStream<[PostgresListenerEvent]>.Continuation, heartbeat: Duration) {
        self.configuration = configuration
        self.channels = channels
        self.continuation = continuation
        self.heartbeat = heartbeat
        var fds: [Int32] = [0, 0]
        // A socket pair is a pipe that can be created close-on-exec atomically, so no
        // program spawned by another thread inherits it.
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0, &fds) == 0,
                     "cannot create a socket pair: \(String(cString: strerror(errno)))")
        wake = (fds[0], fds[1])
    }

    var currentChannels: Set<String> { lock.withLock { channels } }

    func start() async throws {
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            lock.withLock { self.started = started }
            let thread = Thread { self.run() }
            thread.name = "postgres-listener"
            thread.start()
        }
    }

    func submit(_ command: Command) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let accepted = lock.withLock {
                if stopped { return false }
                pending.append((command, done))
                return true
            }
            if accepted { signal() } else {
                done.resume(throwing: PostgresError(code: .connectionDoesNotExist, message: "the listener is closed"))
            }
        }
    }

    func stop() {
        let wasStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if !wasStopped { signal() }
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    // MARK: The thread

    private func run() {
        defer { shutdown() }
        do {
            try connect()
        } catch {
            let started = lock.withLock { defer { self.started = nil }; return self.started }
            started?.resume(throwing: error)
            return
        }
        let started = lock.withLock { defer { self.started = nil }; return self.started }
        started?.resume()

        var lastActivity = ContinuousClock.now
        while !isStopped {
            if handle == nil || PQstatus(handle) != CONNECTION_OK {
                let reason = handle.map { PostgresConnection.errorMessage($0) } ?? "connection lost"
                guard reconnect(reason: reason) else { return }
                lastActivity = .now
            }
            runCommands()
            guard let handle else { continue }
            var descriptors = [
                pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = Int32(heartbeat.components.seconds * 1000) + Int32(heartbeat.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&descriptors, 2, max(timeout, 10))
            if ready < 0 && errno != EINTR { continue }
            if descriptors[1].revents != 0 { drainWakePipe() }
            if descriptors[0].revents != 0 {
                if PQconsumeInput(handle) == 0 { closeHandle(); continue }
                deliverNotifications()
                lastActivity = .now
            } else if ready == 0, ContinuousClock.now - lastActivity >= heartbeat {
                // A quiet socket may be a dead one (a half-open TCP connection never says so).
                if !execute(";") { closeHandle() }
                lastActivity = .now
            }
        }
    }

    private func connect() throws {
        var keywords = configuration.connectionKeywords(applicationName: "summit-listener")
        keywords.append(contentsOf: [("keepalives", "1"), ("keepalives_idle", "10"),
                                     ("keepalives_interval", "5"), ("keepalives_count", "3")])
        let handle = withCStrings(keywords.map(\.0)) { names in
            withCStrings(keywords.map(\.1)) { values in PQconnectdbParams(names, values, 0) }
        }
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let reason = handle.map { PostgresConnection.errorMessage($0) } ?? "out of memory"
            if let handle { PQfinish(handle) }
            throw PostgresError.connection("could not connect to PostgreSQL at \(configuration.target): \(reason)")
        }
        self.handle = handle
        for channel in lock.withLock({ channels }).sorted() {
            guard execute("LISTEN " + PostgresQuery.quoteIdentifier(channel)) else {
                let reason = PostgresConnection.errorMessage(handle)
                closeHandle()
                throw PostgresError.connection("could not LISTEN on \(channel): \(reason)")
            }
        }
    }

    /// Retries with backoff until connected (true) or stopped (false).
    private func reconnect(reason: String) -> Bool {
        closeHandle()
        var delay = 0.05
        while !isStopped {
            if (try? connect()) != nil {
                continuation.yield([.reconnected(reason: reason)])
                return true
            }
            waitForWake(seconds: delay)
            delay = min(delay * 2, 2)
        }
        return false
    }

    private func runCommands() {
        let commands = lock.withLock {
            defer { pending.removeAll() }
            return pending
        }
        for (command, done) in commands {
            let (sql, channel, adding): (String, String, Bool) = switch command {
            case .listen(let channel): ("LISTEN " + PostgresQuery.quoteIdentifier(channel), channel, true)
            case .unlisten(let channel): ("UNLISTEN " + PostgresQuery.quoteIdentifier(channel), channel, false)
            }
            // Record the intent first: if the connection is down, the reconnect applies it.
            lock.withLock { if adding { channels.insert(channel) } else { channels.remove(channel) } }
            if handle != nil, !execute(sql), handle.map({ PQstatus($0) == CONNECTION_OK }) == true {
                lock.withLock { if adding { channels.remove(channel) } else { channels.insert(channel) } }
                done.resume(throwing: PostgresError.client("\(sql) failed: \(PostgresConnection.errorMessage(handle!))"))
                continue
            }
            done.resume()
        }
        deliverNotifications()
    }

    /// Runs one command; notifications that arrive meanwhile stay queued in libpq.
    private func execute(_ sql: String) -> Bool {
        guard let handle, let result = PQexec(handle, sql) else { return false }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        return status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY
    }

    /// Hands on everything libpq has parsed, as one batch.
    private func deliverNotifications() {
        guard let handle else { return }
        var batch: [PostgresListenerEvent] = []
        while let notify = PQnotifies(handle) {
            batch.append(.notification(PostgresNotification(
                channel: String(cString: notify.pointee.relname),
                payload: String(cString: notify.pointee.extra),
                senderPID: notify.pointee.be_pid)))
            PQfreemem(notify)
        }
        if !batch.isEmpty { continuation.yield(batch) }
    }

    private func waitForWake(seconds: Double) {
        var descriptor = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, Int32(seconds * 1000)) > 0 { drainWakePipe() }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &buffer, buffer.count) > 0 {}
    }

    private func closeHandle() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    private func shutdown() {
        closeHandle()
        let leftovers = lock.withLock {
            stopped = true
            defer { pending.removeAll() }
            return pending
        }
        for (_, done) in leftovers {
            done.resume(throwing: PostgresError(code: .connectionDoesNotExist, message: "the listener is closed"))
        }
        continuation.finish()
        close(wake.read)
        close(wake.write)
    }
}
