/// Counts describing a built graph, for operators and benchmarks.
public struct BuildReport: Sendable, Equatable, CustomStringConvertible {
    public var nodeCount = 0
    public var edgeCount = 0
    public var runEdges = 0
    public var liftEdges = 0
    public var traverseEdges = 0
    /// Routable downhill ways by difficulty (`nil` = unrated).
    public var runsByDifficulty: [RunDifficultyCount] = []
    public var runWays = 0
    public var liftWays = 0
    public var connectorWays = 0
    public var identities = 0
    public var closedEdges = 0
    /// Weakly connected components of the directed graph.
    public var connectedComponents = 0
    /// Nodes in the largest strongly connected component: where a skier can
    /// reach every node from every other.
    public var largestStronglyConnectedComponent = 0
    /// Ways left out: `area=yes` footprints, `access` exclusions, fewer than
    /// two resolvable vertices.
    public var excludedAreaWays = 0
    public var excludedAccessWays = 0
    public var excludedDegenerateWays = 0
    /// Lift ways whose drawn loop (bullwheel, station outline) was cut back
    /// to the line between their stations.
    public var trimmedLiftLoops = 0
    /// Routable ways built flat because no vertex had an elevation.
    public var waysWithoutElevation = 0
    public var routability = Routability()
    public var fingerprint = ""

    public struct RunDifficultyCount: Sendable, Equatable {
        public var difficulty: RunDifficulty?
        public var count: Int
    }

    public var description: String {
        let difficulties = runsByDifficulty.map { "\($0.difficulty?.wireName ?? "unrated") \($0.count)" }
            .joined(separator: ", ")
        return """
        nodes \(nodeCount), edges \(edgeCount) (run \(runEdges), lift \(liftEdges), traverse \(traverseEdges)), closed \(closedEdges)
        runs \(runWays) [\(difficulties)], lifts \(liftWays), connectors \(connectorWays), identities \(identities)
        components \(connectedComponents), largest strongly connected \(largestStronglyConnectedComponent) nodes
        \(routability)
        excluded: \(excludedAreaWays) area, \(excludedAccessWays) access, \(excludedDegenerateWays) degenerate; lift loops trimmed: \(trimmedLiftLoops); flat (no elevation): \(waysWithoutElevation)
        fingerprint \(fingerprint)
        """
    }
}

/// A built graph and its report.
public struct BuildResult: Sendable {
    public let graph: MountainGraph
    public let report: BuildReport
}
