extension BuildRun {
    func report(for graph: MountainGraph) -> BuildReport {
        var report = BuildReport()
        report.nodeCount = graph.nodes.count
        report.edgeCount = graph.edges.count
        report.fingerprint = graph.fingerprint
        report.identities = graph.identities.count
        for edge in graph.edges {
            switch edge.kind {
            case .run: report.runEdges += 1
            case .lift: report.liftEdges += 1
            case .traverse: report.traverseEdges += 1
            }
            if !edge.attributes.isOpen { report.closedEdges += 1 }
        }
        var byDifficulty: [Int: Int] = [:]
        for way in ways {
            switch way.kind {
            case .run:
                report.runWays += 1
                let difficulty = way.tags["piste:difficulty"].flatMap(RunDifficulty.init(osm:))
                byDifficulty[difficulty?.rawValue ?? -1, default: 0] += 1
            case .lift: report.liftWays += 1
            case .traverse: report.connectorWays += 1
            }
        }
        report.runsByDifficulty = byDifficulty.keys.sorted().map {
            BuildReport.RunDifficultyCount(difficulty: RunDifficulty(rawValue: $0), count: byDifficulty[$0]!)
        }
        for reason in excluded.values {
            switch reason {
            case .area: report.excludedAreaWays += 1
            case .access: report.excludedAccessWays += 1
            case .degenerate: report.excludedDegenerateWays += 1
            case .notRoutable: break
            }
        }
        report.waysWithoutElevation = flatWays
        report.trimmedLiftLoops = trimmedLiftLoops.count
        let components = GraphComponents(graph)
        report.connectedComponents = components.weakCount
        report.largestStronglyConnectedComponent = components.largestStrong
        report.routability = graph.routability()
        return report
    }
}
