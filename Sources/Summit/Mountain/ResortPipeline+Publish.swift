import Foundation
import MountainGraph
import Postgres

/// What `publish` did: `published` (a new identity is active), `rolled_back`
/// (an older identity is active again), `reactivated` (a newer one, published
/// before, is active again) or `already_active`.
struct PublishOutcome: Codable, Sendable {
    var status: String
    var identity: DatasetIdentity
    var previous: DatasetIdentity?
}

extension ResortPipeline {
    /// Publishes the exact built identity through `publish_canonical_manifest`,
    /// which re-validates the manifest and the blob and moves the active
    /// pointer atomically. Without a snapshot date, the build whose content
    /// SHA this is supplies it (the content covers the date, so it is unique).
    func publish(_ resortID: String, manifestVersion: Int, contentSHA256: String, graphVersion: String,
                 snapshotDate: String?) async throws -> PublishOutcome {
        guard contentSHA256.utf8.count == 64, contentSHA256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw CLIError("--content-sha256 \(contentSHA256) is not a SHA-256",
                           fix: "give the 64 lowercase hex characters `summit resort build \(resortID) --manifest-version \(manifestVersion)` prints as sha256")
        }
        try await requireResort(resortID)
        let date: String
        if let snapshotDate {
            guard let valid = OSMExtract.isoDate(snapshotDate) else {
                throw CLIError("--snapshot-date \(snapshotDate) is not a date", fix: "write it as YYYY-MM-DD")
            }
            date = valid
        } else {
            guard let found = try await asService({ db in
                try await db.query("""
                    select to_char(snapshot_date, 'YYYY-MM-DD') from mountain.resort_graph_blob
                    where resort_id = \(resortID) and manifest_version = \(manifestVersion)
                      and graph_version = \(graphVersion) and sha256 = \(contentSHA256)
                    """).first(as: String.self)
            }) else {
                throw CLIError("there is no \(graphVersion) build of \(resortID) v\(manifestVersion) with content sha256 \(contentSHA256)",
                               fix: "build it (summit resort build \(resortID) --manifest-version \(manifestVersion)) and publish the sha256 it printed")
            }
            date = found
        }
        let answer = try await asService { db in
            try await db.query("""
                select mountain.publish_canonical_manifest(\(resortID), \(manifestVersion), \(graphVersion), \(date)::date, \(contentSHA256))
                """).scalar(PostgresJSON<PublishAnswer>.self).value
        }
        return PublishOutcome(status: answer.status, identity: answer.identity, previous: answer.previous)
    }
}

/// `publish_canonical_manifest`'s answer.
private struct PublishAnswer: Codable, Sendable {
    var status: String
    var identity: DatasetIdentity
    var previous: DatasetIdentity?

    private enum Key: String, CodingKey { case status, previous }

    init(from decoder: any Decoder) throws {
        identity = try DatasetIdentity(from: decoder)
        let container = try decoder.container(keyedBy: Key.self)
        status = try container.decode(String.self, forKey: .status)
        previous = try container.decodeIfPresent(DatasetIdentity.self, forKey: .previous)
    }

    func encode(to encoder: any Encoder) throws {
        try identity.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(previous, forKey: .previous)
    }
}
