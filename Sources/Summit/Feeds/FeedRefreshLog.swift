import Foundation
import Postgres

/// `mountain.resort_feed_refreshes`: every refresh attempt, manual or
/// scheduled, is noted so the scheduler can throttle failed retries.
enum FeedRefreshLog {
    enum Kind: String, Sendable {
        case status
        case weather
    }

    static func note(_ resortID: String, _ kind: Kind, error: (any Error)?, on connection: PostgresConnection) async {
        let message = error.map { String(describing: $0) }
        // Best effort: a failure to log must not hide the refresh's own outcome.
        _ = try? await connection.query("""
            select mountain.record_feed_refresh(\(resortID), \(kind.rawValue), \(error == nil), \(message))
            """, as: .serviceRole)
    }
}
