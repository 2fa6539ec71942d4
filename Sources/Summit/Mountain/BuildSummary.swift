import MountainGraph

/// A build report as data: what the review and build steps print, and what a
/// blob row keeps in `build_report`.
struct BuildSummary: Codable, Sendable, Equatable {
    var nodes: Int
    var edges: Int
    var runEdges: Int
    var liftEdges: Int
    var traverseEdges: Int
    var closedEdges: Int
    /// Routable downhill ways by difficulty (`unrated` when OSM gives none).
    var runsByDifficulty: [String: Int]
    var runs: Int
    var lifts: Int
    var connectors: Int
    var identities: Int
    var connectedComponents: Int
    var largestStronglyConnectedComponent: Int
    var routability: Routability
    var excludedAreaWays: Int
    var excludedAccessWays: Int
    var excludedDegenerateWays: Int
    var flatWays: Int
    var fingerprint: String

    enum CodingKeys: String, CodingKey {
        case nodes, edges
        case runEdges = "run_edges"
        case liftEdges = "lift_edges"
        case traverseEdges = "traverse_edges"
        case closedEdges = "closed_edges"
        case runsByDifficulty = "runs_by_difficulty"
        case runs, lifts, connectors, identities
        case connectedComponents = "connected_components"
        case largestStronglyConnectedComponent = "largest_strongly_connected_component"
        case routability
        case excludedAreaWays = "excluded_area_ways"
        case excludedAccessWays = "excluded_access_ways"
        case excludedDegenerateWays = "excluded_degenerate_ways"
        case flatWays = "flat_ways"
        case fingerprint
    }

    init(_ report: BuildReport) {
        nodes = report.nodeCount
        edges = report.edgeCount
        runEdges = report.runEdges
        liftEdges = report.liftEdges
        traverseEdges = report.traverseEdges
        closedEdges = report.closedEdges
        runsByDifficulty = Dictionary(uniqueKeysWithValues: report.runsByDifficulty.map {
            ($0.difficulty?.wireName ?? "unrated", $0.count)
        })
        runs = report.runWays
        lifts = report.liftWays
        connectors = report.connectorWays
        identities = report.identities
        connectedComponents = report.connectedComponents
        largestStronglyConnectedComponent = report.largestStronglyConnectedComponent
        routability = report.routability
        excludedAreaWays = report.excludedAreaWays
        excludedAccessWays = report.excludedAccessWays
        excludedDegenerateWays = report.excludedDegenerateWays
        flatWays = report.waysWithoutElevation
        fingerprint = report.fingerprint
    }

    /// Runs by difficulty in difficulty order, unrated last.
    var difficultyLine: String {
        let order = RunDifficulty.allCases.map(\.wireName) + ["unrated"]
        return order.compactMap { name in runsByDifficulty[name].map { "\(name) \($0)" } }.joined(separator: ", ")
    }

    var lines: [String] {
        [
            "nodes \(nodes), edges \(edges) (run \(runEdges), lift \(liftEdges), connector \(traverseEdges)), closed \(closedEdges)",
            "runs \(runs) [\(difficultyLine)], lifts \(lifts), connectors \(connectors), identities \(identities)",
            "connected components \(connectedComponents), largest strongly connected \(largestStronglyConnectedComponent) nodes",
            "excluded ways: \(excludedAreaWays) area footprints, \(excludedAccessWays) private/no access, \(excludedDegenerateWays) degenerate"
                + (flatWays > 0 ? "; \(flatWays) ways built flat (no elevation)" : ""),
        ]
    }
}
