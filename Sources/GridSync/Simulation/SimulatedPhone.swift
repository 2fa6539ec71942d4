import Foundation

/// A phone for simulations (the CLI's `summit phone`, the convergence tests):
/// a store in its own documents folder, a network it can lose, and a clock.
public final class SimulatedPhone {
    public let store: GridStore
    /// What `sync` uses when none is given: the retry schedule and pull overlap.
    public var schedule = RetrySchedule()

    public init(folder: URL, clock: PhoneClock = PhoneClock(), ids: @escaping () -> UUID = UUID.init) throws {
        store = try GridStore(folder: folder, clock: clock, ids: ids)
        if let skew = try store.setting("simulated_clock_skew").flatMap(Double.init) { store.clock.skew = skew }
    }

    /// Whether the phone has a network. Kept in its database, so it lasts between commands.
    public var isOnline: Bool {
        get { ((try? store.setting("simulated_network")) ?? nil) != "offline" }
        set { try? store.setSetting("simulated_network", newValue ? nil : "offline") }
    }

    /// How far the phone's clock runs ahead of the true time, in seconds (kept too).
    public var clockSkew: Double {
        get { store.clock.skew }
        set {
            store.clock.skew = newValue
            try? store.setSetting("simulated_clock_skew", newValue == 0 ? nil : String(newValue))
        }
    }

    /// Syncs through `server`, as the app does when the network is there.
    @discardableResult
    public func sync(with server: any GridServer) async throws -> SyncReport {
        guard isOnline else { throw GridServerError.transport("the phone is offline") }
        return try await SyncEngine(server: server, schedule: schedule).sync(store)
    }

    /// Signs out: one last push when online, then the phone is emptied. Answers the rows left unsynced.
    @discardableResult
    public func signOut(with server: (any GridServer)?) async throws -> [QueueEntry] {
        if isOnline, let server {
            return try await SyncEngine(server: server, schedule: schedule).signOut(store)
        }
        let unsynced = try store.queue()
        try store.signOut()
        return unsynced
    }
}
