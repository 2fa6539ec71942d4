import Foundation
import MountainGraph
import Postgres

/// What `apply` staged (or, in a dry run, would stage).
struct ApplyOutcome: Codable, Sendable {
    var resortID: String
    var manifestVersion: Int
    /// False when the newest manifest already has this content: nothing staged.
    var staged: Bool
    var dryRun: Bool
    var draftRevision: Int
    var trails: Int
    var lifts: Int
    var connectors: Int
    var rendezvousPoints: Int
    var contentHash: String

    enum CodingKeys: String, CodingKey {
        case resortID = "resort_id"
        case manifestVersion = "manifest_version"
        case staged
        case dryRun = "dry_run"
        case draftRevision = "draft_revision"
        case trails, lifts, connectors
        case rendezvousPoints = "rendezvous_points"
        case contentHash = "content_hash"
    }
}

/// A connector row as `apply_canonical_manifest` takes it.
private struct ConnectorRow: Codable {
    var connectorID: Int64
    var fromOSMNodeID: Int64
    var toOSMNodeID: Int64
    var bidirectional: Bool
    var evidence: ConnectorEvidence

    enum CodingKeys: String, CodingKey {
        case connectorID = "connector_id"
        case fromOSMNodeID = "from_osm_node_id"
        case toOSMNodeID = "to_osm_node_id"
        case bidirectional, evidence
    }
}

/// Thrown inside a dry run's transaction so that it rolls back.
private struct DryRunRollback: Error {
    let outcome: ApplyOutcome
}

extension ResortPipeline {
    /// Stages the newest draft (rows, connectors and rendezvous overlay) as
    /// the resort's next manifest version in one RPC call. The draft must
    /// build, with its expected counts, against its snapshot first; the RPC
    /// then validates every row again and writes atomically. Unchanged
    /// content answers the newest version; any change, the overlay included,
    /// is a new version. The active publication never moves. A dry run rolls
    /// everything back.
    func apply(_ resortID: String, dryRun: Bool) async throws -> ApplyOutcome {
        let stored = try await latestDraft(resortID)
        let draft = stored.draft
        let snapshot = try await self.snapshot(resortID, date: draft.snapshotDate)
        do {
            _ = try GraphBuilder.build(
                osm: snapshot.osm, manifest: draft.manifest,
                parameters: BuildParameters(resortID: resortID, manifestVersion: 0, snapshotDate: draft.snapshotDate),
                elevation: snapshot.elevation, options: snapshot.options)
        } catch {
            let lines = error.failures.prefix(20).map { "  - \($0)" }.joined(separator: "\n")
            throw CLIError("draft revision \(stored.revision) of \(resortID) does not build against its \(draft.snapshotDate) snapshot; nothing was staged:\n\(lines)",
                           fix: "correct the rows named above: " + Self.restageSteps(resortID))
        }

        let trails = PostgresJSON(draft.trails)
        let lifts = PostgresJSON(draft.lifts)
        let connectors = PostgresJSON(draft.connectors.map {
            ConnectorRow(connectorID: $0.connectorID, fromOSMNodeID: $0.fromOSMNodeID, toOSMNodeID: $0.toOSMNodeID,
                         bidirectional: $0.bidirectional, evidence: $0.evidence)
        })
        let points = PostgresJSON(draft.rendezvousPoints)
        let evidenceURLs = draft.evidenceURLs
        do {
            return try await asService { db in
                let newest = try await db.query("""
                    select coalesce(max(manifest_version), 0) from mountain.resort_canonical_manifest where resort_id = \(resortID)
                    """).scalar(Int.self)
                let version = try await db.query("""
                    select mountain.apply_canonical_manifest(
                      p_resort_id => \(resortID),
                      p_expected_trail_count => \(draft.expectedTrailCount),
                      p_expected_lift_count => \(draft.expectedLiftCount),
                      p_trails => \(trails), p_lifts => \(lifts), p_connectors => \(connectors),
                      p_rendezvous_points => \(points),
                      p_headline_trail_count => \(draft.headlineTrailCount),
                      p_headline_lift_count => \(draft.headlineLiftCount),
                      p_canonical_counts_reviewed => \(draft.canonicalCountsReviewed),
                      p_evidence_observed_at => \(draft.evidenceObservedAt)::date,
                      p_evidence_urls => \(evidenceURLs)::text[],
                      p_validator_notes => \(draft.validatorNotes))
                    """).scalar(Int.self)
                let staged = version > newest
                let outcome = ApplyOutcome(
                    resortID: resortID, manifestVersion: version, staged: staged, dryRun: dryRun,
                    draftRevision: stored.revision, trails: draft.trails.count, lifts: draft.lifts.count,
                    connectors: draft.connectors.count, rendezvousPoints: draft.rendezvousPoints.count,
                    contentHash: try await db.query("""
                        select content_hash from mountain.resort_canonical_manifest
                        where resort_id = \(resortID) and manifest_version = \(version)
                        """).scalar(String.self))
                if dryRun { throw DryRunRollback(outcome: outcome) }
                return outcome
            }
        } catch let rollback as DryRunRollback {
            return rollback.outcome
        } catch let error as PostgresError where error.code == .raiseException {
            throw CLIError("apply_canonical_manifest refused draft revision \(stored.revision) of \(resortID), so nothing was staged: "
                           + error.message + (error.hint.map { " (\($0))" } ?? ""),
                           fix: "correct the draft: " + Self.restageSteps(resortID))
        }
    }

    /// The commands that turn a corrected draft into the next manifest version.
    static func restageSteps(_ resortID: String) -> String {
        "summit resort review \(resortID) --out draft.json, edit draft.json, summit resort review \(resortID) --draft draft.json, "
            + "then summit resort apply \(resortID)"
    }
}
