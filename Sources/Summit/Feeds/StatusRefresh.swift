import Foundation
import MeetSolver
import MountainGraph
import Postgres

/// One status refresh: fetch the feed, read it, check it describes the
/// resort's active dataset, map its names onto stable edge ids and record a
/// new sidecar through `mountain.record_resort_status`. Every failure —
/// unreadable feed, wrong resort or dataset, count mismatch, nothing mapped,
/// a refusal in SQL — happens before anything is written, so the previous
/// status stays in place.
struct StatusRefresh: Sendable {
    let connection: PostgresConnection

    struct Report: Sendable, Encodable {
        var resortID: String
        var datasetVersion: String
        var source: String
        var format: StatusFeed.Format
        var observedAt: String
        var expiresAt: String
        var hourKey: String
        var entries: Int
        var mappedIdentities: Int
        var edgesWritten: Int
        var mapped: [String: String]
        var omitted: [StatusFeedMapping.Omission]

        enum CodingKeys: String, CodingKey {
            case resortID = "resort_id"
            case datasetVersion = "dataset_version"
            case source, format, entries, mapped, omitted
            case observedAt = "observed_at"
            case expiresAt = "expires_at"
            case hourKey = "hour_key"
            case mappedIdentities = "mapped_identities"
            case edgesWritten = "edges_written"
        }
    }

    func refresh(resortID: String, from source: FeedSource, format: StatusFeed.Format?,
                 progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        do {
            let report = try await attempt(resortID: resortID, source: source, format: format, progress: progress)
            await FeedRefreshLog.note(resortID, .status, error: nil, on: connection)
            return report
        } catch {
            await FeedRefreshLog.note(resortID, .status, error: error, on: connection)
            throw error
        }
    }

    private func attempt(resortID: String, source: FeedSource, format: StatusFeed.Format?,
                         progress: @Sendable (String) -> Void) async throws -> Report {
        let fetch = try await ResortPipeline(connection: connection).fetch(resortID, GraphRequest(), as: .serviceRole)
        guard let graph = fetch.graph, let identity = fetch.identity else {
            throw CLIError("\(resortID) has no published canonical dataset, so its status has nothing to describe",
                           fix: "publish one first: summit resort ingest/review/apply/build/publish \(resortID)")
        }
        let counts = try await connection.query("""
            select expected_lift_count, expected_trail_count from mountain.current_resort_canonical_manifest
            where resort_id = \(resortID)
            """, as: .serviceRole).first(as: ManifestCounts.self)
        progress("reading the status feed \(source)")
        let bytes = try await source.fetch()
        let fetchedAt = try await connection.query("select extract(epoch from summit.now())::float8", as: .serviceRole).scalar(Double.self)
        let feed = try StatusFeed.parse(bytes, format: format)
        progress("read \(feed.entries.count) entries (\(feed.count(of: .lift)) lifts, \(feed.count(of: .trail)) trails) as \(feed.format.rawValue)")

        // The feed must describe this resort's active dataset, whole.
        if let named = feed.resortID, named != resortID {
            throw FeedError("the feed describes resort \(named), not \(resortID)", fix: "point \(resortID) at its own feed")
        }
        if let named = feed.datasetVersion, named != identity.datasetVersion {
            throw FeedError("manifest mismatch: the feed describes \(named), but \(resortID)'s active dataset is \(identity.datasetVersion)",
                            fix: "regenerate the feed for the active dataset (summit resort get \(resortID) prints it)")
        }
        if let named = feed.manifestVersion, named != identity.manifestVersion {
            throw FeedError("manifest mismatch: the feed describes manifest \(named), but \(resortID)'s active manifest is \(identity.manifestVersion)",
                            fix: "regenerate the feed for manifest \(identity.manifestVersion)")
        }
        let graphLifts = graph.identities.filter { $0.kind == .lift }.count
        let graphTrails = graph.identities.filter { $0.kind == .trail }.count
        if let counts, counts.expectedLiftCount != graphLifts || counts.expectedTrailCount != graphTrails {
            throw FeedError("count mismatch: manifest \(identity.manifestVersion) expects \(counts.expectedLiftCount) lifts and "
                            + "\(counts.expectedTrailCount) trails, but the published graph carries \(graphLifts) and \(graphTrails)",
                            fix: "rebuild and republish \(resortID) before refreshing its status")
        }
        if let declared = feed.declaredLiftCount, declared != feed.count(of: .lift) {
            throw FeedError("count mismatch: the feed declares \(declared) lifts but lists \(feed.count(of: .lift))",
                            fix: "the feed was cut short or is inconsistent; fix the producer and refresh again")
        }
        if let declared = feed.declaredTrailCount, declared != feed.count(of: .trail) {
            throw FeedError("count mismatch: the feed declares \(declared) trails but lists \(feed.count(of: .trail))",
                            fix: "the feed was cut short or is inconsistent; fix the producer and refresh again")
        }

        let mapping = StatusFeedMapping(feed: feed, graph: graph)
        for omission in mapping.omitted {
            progress("omitted \(omission.kind ?? "entry") \"\(omission.name)\": \(omission.reason)"
                     + (omission.candidates.isEmpty ? "" : " (\(omission.candidates.joined(separator: ", ")))"))
        }
        guard !mapping.edges.isEmpty else {
            throw FeedError("none of the feed's \(feed.entries.count) names matches an identity of \(resortID)'s dataset",
                            fix: "check that the feed belongs to \(resortID) and that its names are the canonical ones")
        }
        let observedAt = feed.observedAt ?? fetchedAt
        let expiresAt = feed.expiresAt ?? observedAt + 3600
        if expiresAt <= fetchedAt {
            throw FeedError("the feed's status expired at \(Self.iso(expiresAt)) (observed \(Self.iso(observedAt)))",
                            fix: "the producer is stale; refresh it and try again")
        }
        let sourceLabel = "\(feed.format.rawValue): \(source)"
        let answer: AppSession.Answer
        do {
            answer = try await AppSession(connection: connection).call("mountain.record_resort_status", [
                ("p_resort_id", resortID), ("p_manifest_version", identity.manifestVersion),
                ("p_graph_version", identity.graphVersion), ("p_content_sha256", identity.contentSHA256),
                ("p_observed_at", Date(timeIntervalSince1970: observedAt)), ("p_source", String(sourceLabel.prefix(500))),
                ("p_edges", PostgresJSON(mapping.edges)), ("p_expires_at", Date(timeIntervalSince1970: expiresAt)),
            ], as: .serviceRole)
        } catch let refusal as RPCRefusal {
            throw CLIError("the status was refused: \(refusal.code)", fix: refusal.hint ?? "check the feed")
        }
        return Report(resortID: resortID, datasetVersion: identity.datasetVersion, source: source.description, format: feed.format,
                      observedAt: Self.iso(observedAt), expiresAt: Self.iso(expiresAt),
                      hourKey: answer.json["hour_key"].string ?? "", entries: feed.entries.count,
                      mappedIdentities: mapping.mapped.count, edgesWritten: mapping.edges.count, mapped: mapping.mapped,
                      omitted: mapping.omitted)
    }

    private struct ManifestCounts: Decodable {
        var expectedLiftCount: Int
        var expectedTrailCount: Int
    }

    static func iso(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
