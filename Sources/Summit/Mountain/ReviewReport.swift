import MountainGraph

/// What an operator reviews before applying a draft: the identities and
/// counts, the graph the draft builds, the figures of each stage (as drafted,
/// with each proposal kind, with all), the pending proposals with their
/// evidence, and the ways that could not become identities.
struct ReviewReport: Codable, Sendable {
    var resortID: String
    var snapshotDate: String
    var osmSHA256: String
    var elevationPolicy: ElevationPolicy
    var draftRevision: Int
    var trails: Int
    var lifts: Int
    var expectedTrailCount: Int
    var expectedLiftCount: Int
    var headlineTrailCount: Int?
    var headlineLiftCount: Int?
    var canonicalCountsReviewed: Bool
    var connectorsAccepted: Int
    /// The graph the draft builds as it stands.
    var graph: BuildSummary
    /// As drafted, with each pending proposal kind alone, and with all.
    var stages: [ReviewStage]
    var claimProposals: [DraftClaim]
    var proposals: [DraftConnector]
    var rendezvousProposals: [DraftRendezvous]
    var unresolved: [UnresolvedIdentity]

    enum CodingKeys: String, CodingKey {
        case resortID = "resort_id"
        case snapshotDate = "snapshot_date"
        case osmSHA256 = "osm_sha256"
        case elevationPolicy = "elevation_policy"
        case draftRevision = "draft_revision"
        case trails, lifts
        case expectedTrailCount = "expected_trail_count"
        case expectedLiftCount = "expected_lift_count"
        case headlineTrailCount = "headline_trail_count"
        case headlineLiftCount = "headline_lift_count"
        case canonicalCountsReviewed = "canonical_counts_reviewed"
        case connectorsAccepted = "connectors_accepted"
        case graph
        case stages
        case claimProposals = "claim_proposals"
        case proposals = "connector_proposals"
        case rendezvousProposals = "rendezvous_proposals"
        case unresolved
    }

    var countsMatch: Bool { trails == expectedTrailCount && lifts == expectedLiftCount }

    var hasPendingProposals: Bool { !claimProposals.isEmpty || !proposals.isEmpty || !rendezvousProposals.isEmpty }

    /// The report as text, `proposalLimit` proposals and unresolved names shown.
    func text(proposalLimit: Int = 30) -> String {
        var lines = [
            "resort \(resortID), snapshot \(snapshotDate) (osm sha256 \(osmSHA256.prefix(12))…, elevation \(elevationPolicy.rawValue)), draft revision \(draftRevision)",
            "identities: \(trails) trails, \(lifts) lifts; expected \(expectedTrailCount) trails, \(expectedLiftCount) lifts"
                + (canonicalCountsReviewed ? " (reviewed)" : " (drafted, not reviewed)")
                + (headlineTrailCount != nil || headlineLiftCount != nil
                    ? "; headline \(headlineTrailCount.map(String.init) ?? "?") trails, \(headlineLiftCount.map(String.init) ?? "?") lifts" : ""),
        ]
        if !countsMatch {
            lines.append("  ! the rows do not match the expected counts: apply will refuse until they do")
        }
        lines.append("graph as drafted:")
        lines += graph.lines.map { "  " + $0 }
        lines.append("figures (the graph as built and routed: open edges only):")
        lines += stages.flatMap { $0.lines.map { "  " + $0 } }
        func list<T>(_ title: String, _ rows: [T], number: (T) -> Int, summary: (T) -> String) {
            guard !rows.isEmpty else { return }
            lines.append("\(title) (\(rows.count)):")
            lines += rows.prefix(proposalLimit).map { "  \(number($0)). \(summary($0))" }
            if rows.count > proposalLimit { lines.append("  … \(rows.count - proposalLimit) more (--json lists them all)") }
        }
        list("identity proposals", claimProposals, number: \.number, summary: \.summary)
        list("connector proposals", proposals, number: \.number, summary: \.summary)
        list("rendezvous proposals", rendezvousProposals, number: \.number, summary: \.summary)
        if hasPendingProposals {
            lines.append("accept with --accept all, --accept claims|connectors|rendezvous, or --accept 1,4,… (numbers above)")
        }
        if !unresolved.isEmpty {
            lines.append("names left out of the draft (\(unresolved.count); unless an identity proposal claims their ways, they are built closed):")
            lines += unresolved.prefix(proposalLimit).map {
                "  \($0.kind) \"\($0.name)\" ways \($0.osmWayIDs.map(String.init).joined(separator: ",")): \($0.code)"
            }
            if unresolved.count > proposalLimit { lines.append("  … \(unresolved.count - proposalLimit) more (--json lists them all)") }
        }
        return lines.joined(separator: "\n")
    }
}
