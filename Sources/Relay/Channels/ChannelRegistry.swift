/// The one owner of the relay's channels (spec §7.6): keyed by name,
/// ref-counted by holder, each with its own transport lifecycle.
///
/// A channel is LISTENed while anyone holds it and UNLISTENed when the last
/// holder releases it. References are per holder, so a holder that acquires a
/// channel again — during its connect, while live, or while it is being torn
/// down — still holds one reference, and one release lets it go.
public actor ChannelRegistry {
    public enum Lifecycle: String, Sendable {
        case idle, connecting, live, stopping
    }

    /// Who holds a reference: the relay uses subscriber numbers.
    public typealias Holder = Int

    private struct Entry {
        var holders: Set<Holder> = []
        var lifecycle: Lifecycle = .idle
        /// The LISTEN or UNLISTEN in flight; others wait for it instead of racing it.
        var transition: Task<Void, any Error>?
    }

    private let transport: any ChannelTransport
    private var entries: [String: Entry] = [:]

    public init(transport: any ChannelTransport) {
        self.transport = transport
    }

    public func lifecycle(of channel: String) -> Lifecycle { entries[channel]?.lifecycle ?? .idle }

    public func references(to channel: String) -> Int { entries[channel]?.holders.count ?? 0 }

    /// Channels currently LISTENed.
    public var liveChannels: Set<String> { Set(entries.filter { $0.value.lifecycle == .live }.keys) }

    /// Takes `holder`'s reference and listens; returns once the channel is live.
    public func acquire(_ channel: String, holder: Holder) async throws {
        prepare(channel, holder: holder)
        do {
            try await subscribe(channel)
        } catch {
            await release(channel, holder: holder)
            throw error
        }
    }

    /// Takes `holder`'s reference without listening yet, so several holders can
    /// attach before the single `subscribe`.
    public func prepare(_ channel: String, holder: Holder) {
        entries[channel, default: Entry()].holders.insert(holder)
    }

    /// Listens on `channel` if anyone holds it; returns once it is live (or nobody holds it any more).
    public func subscribe(_ channel: String) async throws {
        while let entry = entries[channel], !entry.holders.isEmpty {
            switch entry.lifecycle {
            case .live:
                return
            case .connecting, .stopping:
                // Someone else's transition: wait for it, then look again. Its failure is theirs to report.
                _ = try? await entry.transition?.value
            case .idle:
                try await transition(channel, listening: true).value
                // Everyone may have let go while the LISTEN was in flight.
                await settle(channel)
                return
            }
        }
    }

    /// Starts a LISTEN or UNLISTEN. The task records the outcome on the registry
    /// before it completes, so whoever awaits it finds the lifecycle already moved on.
    private func transition(_ channel: String, listening: Bool) -> Task<Void, any Error> {
        let transport = transport
        let task = Task {
            do {
                if listening { try await transport.listen(channel) } else { try await transport.unlisten(channel) }
            } catch {
                // A failed LISTEN leaves the channel idle; a failed UNLISTEN means the
                // connection is gone, and with it the LISTEN.
                self.finish(channel, at: .idle)
                throw error
            }
            self.finish(channel, at: listening ? .live : .idle)
        }
        entries[channel]?.lifecycle = listening ? .connecting : .stopping
        entries[channel]?.transition = task
        return task
    }

    private func finish(_ channel: String, at lifecycle: Lifecycle) {
        entries[channel]?.lifecycle = lifecycle
        entries[channel]?.transition = nil
    }

    /// Drops `holder`'s reference; the last one out UNLISTENs. Returns once that is done.
    public func release(_ channel: String, holder: Holder) async {
        guard entries[channel]?.holders.remove(holder) != nil else { return }
        await settle(channel)
    }

    /// Stops a channel nobody holds (unless a transition in flight will look again when it ends).
    private func settle(_ channel: String) async {
        guard let entry = entries[channel], entry.holders.isEmpty else { return }
        switch entry.lifecycle {
        case .idle:
            entries[channel] = nil
        case .connecting, .stopping:
            return
        case .live:
            _ = try? await transition(channel, listening: false).value
            // A holder that arrived meanwhile is waiting in `subscribe` and listens again.
            if entries[channel]?.holders.isEmpty == true { entries[channel] = nil }
        }
    }
}
