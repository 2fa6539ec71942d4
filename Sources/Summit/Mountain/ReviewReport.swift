import MountainGraph

/// What an operator reviews before applying a draft: the identities and
/// counts, the graph the draft builds, routability with and without
/// connectors, the pending proposals with their evidence, and the names that
/// could not become identities.
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
    /// Source topology alone (no connectors), as drafted (accepted
    /// connectors), and with every pending proposal accepted too.
    var routabilitySourceOnly: RoutabilitySummary
    var routabilityAsDrafted: RoutabilitySummary
    var routabilityWithAllProposals: RoutabilitySummary
    var proposals: [DraftConnector]
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
        case routabilitySourceOnly = "routability_source_only"
        case routabilityAsDrafted = "routability_as_drafted"
        case routabilityWithAllProposals = "routability_with_all_proposals"
        case proposals, unresolved
    }

    var countsMatch: Bool { trails == expectedTrailCount && lifts == expectedLiftCount }

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
        lines.append("routability:")
        lines.append("  source topology only:   " + routabilitySourceOnly.line)
        lines.append("  as drafted (\(connectorsAccepted) connector\(connectorsAccepted == 1 ? "" : "s")): " + routabilityAsDrafted.line)
        if !proposals.isEmpty {
            lines.append("  with all \(proposals.count) pending proposals: " + routabilityWithAllProposals.line)
        }
        if !proposals.isEmpty {
            lines.append("connector proposals (accept with --accept-connectors all or --accept-connectors 1,4,…):")
            lines += proposals.prefix(proposalLimit).map { "  \($0.number). \($0.summary)" }
            if proposals.count > proposalLimit { lines.append("  … \(proposals.count - proposalLimit) more (--json lists them all)") }
        }
        if !unresolved.isEmpty {
            lines.append("names left out (\(unresolved.count); their ways are unclaimed, so their runs are built closed):")
            lines += unresolved.prefix(proposalLimit).map {
                "  \($0.kind) \"\($0.name)\" ways \($0.osmWayIDs.map(String.init).joined(separator: ",")): \($0.code)"
            }
            if unresolved.count > proposalLimit { lines.append("  … \(unresolved.count - proposalLimit) more (--json lists them all)") }
        }
        return lines.joined(separator: "\n")
    }
}
