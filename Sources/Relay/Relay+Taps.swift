import Foundation
import Postgres

/// What a tap hears.
public enum RelayTapEvent: Sendable, Equatable {
    /// A notification on the tapped channel.
    case notification(String)
    /// The listening connection was lost and is back: notifications sent meanwhile
    /// are gone, and whoever tapped should re-read what the database holds.
    case gap(reason: String)
}

/// A raw subscription to one notification channel on the relay's listening
/// connection, for callers with channels of their own (the gateway's broadcast,
/// presence and row-change channels). Ref-counted with everyone else's in the
/// relay's `ChannelRegistry`, so a process still holds one listening connection.
public struct RelayTap: Sendable, Hashable {
    public let id: Int
    public let channel: String
}

/// A tap's receiver: called on the relay's executor, so it must return at once
/// (hand the event over, never wait).
public typealias RelayTapHandler = @Sendable (RelayTapEvent) -> Void

extension Relay {
    /// LISTENs on `channel` (if nobody else does yet) and calls `handler` with every
    /// notification on it until `untap`. Returns once the channel is live.
    public func tap(_ channel: String, handler: @escaping RelayTapHandler) async throws -> RelayTap {
        guard !isClosed else { throw RelayError.closed }
        let id = nextSubscriberID
        nextSubscriberID += 1
        let tap = RelayTap(id: id, channel: channel)
        taps[channel, default: [:]][id] = handler
        do {
            try await registry.acquire(channel, holder: id)
        } catch {
            taps[channel]?[id] = nil
            if taps[channel]?.isEmpty == true { taps[channel] = nil }
            throw error
        }
        return tap
    }

    /// Stops the tap; the last one out of a channel UNLISTENs.
    public func untap(_ tap: RelayTap) async {
        guard taps[tap.channel]?.removeValue(forKey: tap.id) != nil else { return }
        if taps[tap.channel]?.isEmpty == true { taps[tap.channel] = nil }
        await registry.release(tap.channel, holder: tap.id)
    }

    /// Hands a notification to the channel's taps.
    func deliverToTaps(_ notification: PostgresNotification) {
        guard let handlers = taps[notification.channel] else { return }
        statistics.tapped += handlers.count
        for handler in handlers.values { handler(.notification(notification.payload)) }
    }

    func tellTapsOfGap(_ reason: String) {
        for handlers in taps.values {
            for handler in handlers.values { handler(.gap(reason: reason)) }
        }
    }
}
