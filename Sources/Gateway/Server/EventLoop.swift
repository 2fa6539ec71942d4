#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Foundation

/// Something the event loop tells when its descriptor is ready.
protocol EventHandler: AnyObject {
    /// `readable` / `writable` as epoll reported them; `hangup` for errors and hang-ups.
    func ready(readable: Bool, writable: Bool, hangup: Bool)
}

/// The server's one I/O thread: epoll over its sockets, an eventfd for work handed
/// in from other threads, and a periodic tick for timeouts.
///
/// Everything registered with the loop — listeners, connections — is touched only
/// on this thread, so none of it needs locks. Other threads hand work over with
/// `execute`, which is the only way in. Blocking calls never happen here, and the
/// loop never runs on Swift's cooperative pool.
final class EventLoop: @unchecked Sendable {
    private let epollFD: Int32
    private let wakeFD: Int32
    /// Loop thread only.
    private var handlers: [Int32: any EventHandler] = [:]
    private var tickHandlers: [() -> Void] = []
    private var running = false

    private let lock = NSLock()
    // Guarded by `lock`:
    private var inbox: [() -> Void] = []
    private var wakePending = false
    private var stopRequested = false
    private var finished: [CheckedContinuation<Void, Never>] = []
    private var hasFinished = false

    /// How often the tick runs (timeouts are checked at this granularity).
    let tickInterval: Duration
    private var thread: Thread?
    private var loopThreadID: pthread_t?

    init(tickInterval: Duration = .milliseconds(250)) throws {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw Socket.Failure(call: "epoll_create1", code: errno) }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            close(epollFD)
            throw Socket.Failure(call: "eventfd", code: errno)
        }
        self.tickInterval = tickInterval
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wakeFD))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    /// Starts the loop on a thread of its own.
    func start(name: String) {
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// Whether the caller is on the loop's thread.
    var isOnLoop: Bool {
        guard let loopThreadID else { return false }
        return pthread_equal(loopThreadID, pthread_self()) != 0
    }

    /// Runs `work` on the loop thread, soon. Safe from any thread.
    func execute(_ work: @escaping () -> Void) {
        let wake: Bool = lock.withLock {
            inbox.append(work)
            defer { wakePending = true }
            return !wakePending
        }
        if wake { signalWake() }
    }

    /// Asks the loop to end after the current turn; returns once it has.
    func stop() async {
        let wake: Bool = lock.withLock {
            stopRequested = true
            defer { wakePending = true }
            return !wakePending
        }
        if wake { signalWake() }
        await withCheckedContinuation { continuation in
            let done: Bool = lock.withLock {
                if hasFinished { return true }
                finished.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Calls `body` on every tick, on the loop thread.
    func onTick(_ body: @escaping () -> Void) {
        tickHandlers.append(body)
    }

    // MARK: - Registration (loop thread only)

    func register(_ fd: Int32, _ handler: any EventHandler, readable: Bool, writable: Bool) {
        handlers[fd] = handler
        var event = epoll_event(events: mask(readable: readable, writable: writable), data: epoll_data_t(fd: fd))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
    }

    func update(_ fd: Int32, readable: Bool, writable: Bool) {
        var event = epoll_event(events: mask(readable: readable, writable: writable), data: epoll_data_t(fd: fd))
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd` (the caller closes it).
    func unregister(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
    }

    private func mask(readable: Bool, writable: Bool) -> UInt32 {
        // Hang-ups of the peer's write side count as readable only while reading:
        // a connection waiting for its handler is not woken by them.
        var mask: UInt32 = 0
        if readable { mask |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
        if writable { mask |= EPOLLOUT.rawValue }
        return mask
    }

    // MARK: - The loop

    private func signalWake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    private func run() {
        loopThreadID = pthread_self()
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 512)
        let tickNanos = UInt64(tickInterval.components.seconds) * 1_000_000_000
            + UInt64(tickInterval.components.attoseconds / 1_000_000_000)
        var nextTick = Monotonic.nanoseconds() + tickNanos
        while true {
            let now = Monotonic.nanoseconds()
            let timeout = now >= nextTick ? 0 : Int32(min((nextTick - now) / 1_000_000 + 1, 1000))
            let count = epoll_wait(epollFD, &events, Int32(events.count), timeout)
            if count < 0 && errno != EINTR { break }
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                let fd = event.data.fd
                if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = Glibc.read(wakeFD, &value, 8)
                    continue
                }
                guard let handler = handlers[fd] else { continue }
                let flags = event.events
                handler.ready(readable: flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                              writable: flags & EPOLLOUT.rawValue != 0,
                              hangup: flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0)
            }
            let (work, stop): ([() -> Void], Bool) = lock.withLock {
                defer {
                    inbox.removeAll(keepingCapacity: true)
                    wakePending = false
                }
                return (inbox, stopRequested)
            }
            for item in work { item() }
            if Monotonic.nanoseconds() >= nextTick {
                for tick in tickHandlers { tick() }
                nextTick = Monotonic.nanoseconds() + tickNanos
            }
            if stop { break }
        }
        running = false
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            hasFinished = true
            defer { finished.removeAll() }
            return finished
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A monotonic clock in nanoseconds, for deadlines on the loop.
enum Monotonic {
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
