/// How well lifts and runs connect: the figures a reviewer compares before
/// and after accepting connectors.
public struct Routability: Sendable, Equatable, CustomStringConvertible {
    /// Distinct lift top nodes, and those from which a run can be started
    /// (directly or over connectors).
    public var liftTops = 0
    public var liftTopsReachingRun = 0
    /// Nodes where runs end (no run continues), and those from which a lift
    /// can be boarded (directly or over connectors).
    public var runEnds = 0
    public var runEndsReachingLift = 0
    /// Nodes in the largest strongly connected component.
    public var largestStronglyConnectedComponent = 0

    public var liftTopShare: Double { liftTops == 0 ? 0 : Double(liftTopsReachingRun) / Double(liftTops) }
    public var runEndShare: Double { runEnds == 0 ? 0 : Double(runEndsReachingLift) / Double(runEnds) }

    public var description: String {
        func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
        return "lift tops reaching a run \(liftTopsReachingRun)/\(liftTops) (\(percent(liftTopShare))), "
            + "run ends reaching a lift \(runEndsReachingLift)/\(runEnds) (\(percent(runEndShare))), "
            + "largest strongly connected component \(largestStronglyConnectedComponent) nodes"
    }
}

extension MountainGraph {
    public func routability() -> Routability {
        routability(largestStrong: GraphComponents(self).largestStrong)
    }

    func routability(largestStrong: Int) -> Routability {
        var outgoing = Array(repeating: [Int](), count: nodes.count)
        var hasRunOut = Array(repeating: false, count: nodes.count)
        var hasRunIn = Array(repeating: false, count: nodes.count)
        var hasLiftOut = Array(repeating: false, count: nodes.count)
        // A lift top is where a primary (base → top) lift chain ends.
        var chainEnds: [String: (index: Int, node: Int)] = [:]
        for (index, edge) in edges.enumerated() {
            guard let source = nodePosition(id: edge.sourceID), let target = nodePosition(id: edge.targetID) else { continue }
            outgoing[source].append(index)
            switch edge.kind {
            case .run: hasRunOut[source] = true; hasRunIn[target] = true
            case .lift:
                hasLiftOut[source] = true
                if !edge.isReverseTwin {
                    let chain = edge.attributes.identityKey ?? edge.attributes.sourceWayId
                    let position = edge.attributes.chainIndex ?? 0
                    if position >= chainEnds[chain]?.index ?? -1 { chainEnds[chain] = (position, target) }
                }
            case .traverse: break
            }
        }
        var isLiftTop = Array(repeating: false, count: nodes.count)
        for end in chainEnds.values { isLiftTop[end.node] = true }

        /// Nodes reachable from `start` over connector (traverse) edges only.
        func overConnectors(from start: Int, satisfies goal: (Int) -> Bool) -> Bool {
            var stack = [start]
            var seen: Set<Int> = [start]
            while let node = stack.popLast() {
                if goal(node) { return true }
                for edgeIndex in outgoing[node] where edges[edgeIndex].kind == .traverse {
                    if let next = nodePosition(id: edges[edgeIndex].targetID), seen.insert(next).inserted { stack.append(next) }
                }
            }
            return false
        }

        var result = Routability()
        for node in nodes.indices {
            if isLiftTop[node] {
                result.liftTops += 1
                if overConnectors(from: node, satisfies: { hasRunOut[$0] }) { result.liftTopsReachingRun += 1 }
            }
            if hasRunIn[node] && !hasRunOut[node] {
                result.runEnds += 1
                if overConnectors(from: node, satisfies: { hasLiftOut[$0] }) { result.runEndsReachingLift += 1 }
            }
        }
        result.largestStronglyConnectedComponent = largestStrong
        return result
    }
}
