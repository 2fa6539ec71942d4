import Postgres

/// What the channel registry drives: LISTEN and UNLISTEN on one connection.
public protocol ChannelTransport: Sendable {
    func listen(_ channel: String) async throws
    func unlisten(_ channel: String) async throws
}

extension PostgresListener: ChannelTransport {}
