import Foundation
import MountainGraph
import Postgres

/// A draft revision as stored.
struct StoredDraft: Sendable {
    var revision: Int
    var draft: ManifestDraft
}

extension ResortPipeline {
    /// The resort's newest draft revision.
    func latestDraft(_ resortID: String) async throws -> StoredDraft {
        struct Row: Decodable {
            var revision: Int
            var document: ManifestDraft
        }
        let row = try await asService { db in
            try await db.query("""
                select revision, document from mountain.manifest_drafts
                where resort_id = \(resortID) order by revision desc limit 1
                """).first(as: Row.self)
        }
        guard let row else {
            try await requireResort(resortID)
            throw CLIError("\(resortID) has no manifest draft", fix: "ingest an extract first: summit resort ingest \(resortID) --osm FILE")
        }
        return StoredDraft(revision: row.revision, draft: row.document)
    }

    /// Builds `draft` as it stands, with each pending proposal kind, and with
    /// all, and reports each stage's figures. A draft that does not build is
    /// refused with the build's reasons. Never inlined: inlined into an async
    /// caller, it crashes Swift 6.3's optimiser (signal 11, splitting the coroutine).
    @inline(never)
    func review(_ draft: ManifestDraft, revision: Int, snapshot: SnapshotInputs,
                sampling: ReviewStages.Sampling = ReviewStages.Sampling()) throws -> ReviewReport {
        let stages = try ReviewStages.measure(draft, snapshot: snapshot, sampling: sampling) { error in
            let lines = error.failures.prefix(20).map { "  - \($0)" }.joined(separator: "\n")
            let more = error.failures.count > 20 ? "\n  … and \(error.failures.count - 20) more" : ""
            return CLIError("draft revision \(revision) of \(draft.resortID) does not build against the \(draft.snapshotDate) snapshot:\n\(lines)\(more)",
                            fix: "correct the rows named above (summit resort review \(draft.resortID) --out FILE, edit, then --draft FILE)")
        }
        var manifest = draft.manifest
        manifest.expectedTrailCount = nil
        manifest.expectedLiftCount = nil
        let asDrafted = try GraphBuilder.build(
            osm: snapshot.osm, manifest: manifest,
            parameters: BuildParameters(resortID: draft.resortID, manifestVersion: 1, snapshotDate: draft.snapshotDate),
            elevation: snapshot.elevation, options: snapshot.options).report
        return ReviewReport(
            resortID: draft.resortID, snapshotDate: draft.snapshotDate, osmSHA256: draft.osmSHA256,
            elevationPolicy: snapshot.elevationPolicy, draftRevision: revision,
            trails: draft.trails.count, lifts: draft.lifts.count,
            expectedTrailCount: draft.expectedTrailCount, expectedLiftCount: draft.expectedLiftCount,
            headlineTrailCount: draft.headlineTrailCount, headlineLiftCount: draft.headlineLiftCount,
            canonicalCountsReviewed: draft.canonicalCountsReviewed, connectorsAccepted: draft.connectors.count,
            graph: BuildSummary(asDrafted), stages: stages,
            claimProposals: draft.claimProposals, proposals: draft.proposals, rendezvousProposals: draft.rendezvousProposals,
            unresolved: draft.unresolved)
    }

    /// What `summit resort review` changes before reporting.
    struct ReviewChange: Sendable {
        /// An edited draft file replacing the newest revision.
        var editedDraft: (bytes: [UInt8], file: String)?
        /// Proposal numbers to accept, and whole kinds to accept.
        var acceptNumbers: [Int] = []
        var acceptKinds: Set<ManifestDraft.ProposalKind> = []
        /// Proposals again for the rows as they now stand (after an edit).
        var repropose = false
        var sampling = ReviewStages.Sampling()
    }

    /// Reviews the newest draft, after applying `change` (stored as a new
    /// revision only when it changes the draft and still builds).
    func review(_ resortID: String, change: ReviewChange) async throws -> ReviewReport {
        let latest = try await latestDraft(resortID)
        var draft = latest.draft
        if let edited = change.editedDraft {
            draft = try ManifestDraft.read(edited.bytes, file: edited.file)
            guard draft.resortID == resortID else {
                throw CLIError("\(edited.file) is a draft for \(draft.resortID), not \(resortID)", fix: "review it as \(draft.resortID)")
            }
        }
        let known = draft.pendingNumbers
        let unknown = change.acceptNumbers.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw CLIError("no pending proposal numbered \(unknown.map(String.init).joined(separator: ", ")) in draft revision \(latest.revision)",
                           fix: "use the numbers `summit resort review \(resortID)` lists")
        }
        draft.accept(numbers: change.acceptNumbers + draft.numbers(of: change.acceptKinds))
        let snapshot = try await self.snapshot(resortID, date: draft.snapshotDate)
        if change.repropose { try draft.propose(snapshot) }
        guard snapshot.sha256 == draft.osmSHA256 else {
            throw CLIError("the draft was made from an extract with sha256 \(draft.osmSHA256), but the \(draft.snapshotDate) snapshot is \(snapshot.sha256)",
                           fix: "keep osm_sha256 and snapshot_date as the draft was written")
        }
        let changed = draft != latest.draft
        // The report's builds double as the check: a draft that does not build is never stored.
        var report = try review(draft, revision: latest.revision + (changed ? 1 : 0), snapshot: snapshot, sampling: change.sampling)
        if changed {
            report.draftRevision = try await asService { [draft] db in try await storeDraft(db, draft) }
        }
        return report
    }
}
