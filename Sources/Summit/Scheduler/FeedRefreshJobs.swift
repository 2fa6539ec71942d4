import Foundation
import Postgres

/// The scheduled status and weather refreshes: every enabled feed source
/// `mountain.due_feed_refreshes` names (status within two minutes of expiry,
/// weather hourly, failures retried after five minutes) is refreshed in turn.
/// One resort's failure is logged and noted, and never stops the others.
enum FeedRefreshJobs {
    private struct Due: Decodable {
        var resortId: String
        var location: String
        var format: String?
        var reason: String
    }

    static func refreshDueStatus(on db: PostgresConnection, log: @Sendable (String) -> Void) async throws -> String {
        let due = try await db.query("select * from mountain.due_feed_refreshes('status')", as: .serviceRole).decode(Due.self)
        var lines: [String] = []
        for item in due {
            do {
                let source = try FeedSource(item.location)
                let report = try await StatusRefresh(connection: db)
                    .refresh(resortID: item.resortId, from: source, format: item.format.flatMap(StatusFeed.Format.init(rawValue:)))
                lines.append("\(item.resortId) (\(item.reason)): \(report.mappedIdentities) identities, \(report.edgesWritten) edges"
                             + (report.omitted.isEmpty ? "" : ", \(report.omitted.count) names omitted") + ", until \(report.expiresAt)")
            } catch {
                log("worker: status refresh of \(item.resortId) failed; the previous status stays, next try in 5 min: \(error)")
                lines.append("\(item.resortId) failed")
            }
        }
        return lines.joined(separator: "; ")
    }

    static func refreshDueWeather(on db: PostgresConnection, log: @Sendable (String) -> Void) async throws -> String {
        let due = try await db.query("select * from mountain.due_feed_refreshes('weather')", as: .serviceRole).decode(Due.self)
        var lines: [String] = []
        for item in due {
            do {
                let source = try FeedSource(item.location)
                let report = try await WeatherRefresh(connection: db).refresh(resortID: item.resortId, from: source)
                lines.append("\(item.resortId): merged \(report.mergedSamples) hourly samples (generation \(report.generation))"
                             + (report.activeMeets.isEmpty ? "" : ", re-evaluated \(report.activeMeets.count) active meets"))
            } catch {
                log("worker: weather refresh of \(item.resortId) failed; the previous conditions stay, next try in 5 min: \(error)")
                lines.append("\(item.resortId) failed")
            }
        }
        return lines.joined(separator: "; ")
    }
}
