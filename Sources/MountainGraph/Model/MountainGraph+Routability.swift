/// How well lifts and runs connect on the graph as it will be routed: open
/// edges only, since a closed run or lift carries nobody. These are the
/// figures a reviewer compares before and after accepting proposals.
public struct Routability: Sendable, Equatable, Codable, CustomStringConvertible {
    public var nodes = 0
    /// Distinct top stations of open lifts, and those from which an open run
    /// can be started (directly or over connectors).
    public var liftTops = 0
    public var liftTopsReachingRun = 0
    /// Nodes where open runs end (no open run continues), and those from
    /// which an open lift can be boarded (directly or over connectors).
    public var runEnds = 0
    public var runEndsReachingLift = 0
    /// Nodes in the largest strongly connected component over open edges:
    /// where a skier can get from every node to every other.
    public var largestStronglyConnectedComponent = 0
    /// Distinct bases and tops of open lifts, and those inside that component.
    public var liftEnds = 0
    public var liftEndsInLargestComponent = 0
    /// Run edges, those built closed, and why: unclaimed and unnamed, or
    /// unclaimed though named (the name is no identity).
    public var runEdges = 0
    public var closedRunEdges = 0
    public var closedUnnamedRunEdges = 0
    public var closedNamedRunEdges = 0
    /// Rendezvous points, and those inside the largest component.
    public var rendezvousPoints = 0
    public var rendezvousPointsInLargestComponent = 0

    enum CodingKeys: String, CodingKey {
        case nodes
        case liftTops = "lift_tops"
        case liftTopsReachingRun = "lift_tops_reaching_run"
        case runEnds = "run_ends"
        case runEndsReachingLift = "run_ends_reaching_lift"
        case largestStronglyConnectedComponent = "largest_strongly_connected_component"
        case liftEnds = "lift_ends"
        case liftEndsInLargestComponent = "lift_ends_in_largest_component"
        case runEdges = "run_edges"
        case closedRunEdges = "closed_run_edges"
        case closedUnnamedRunEdges = "closed_unnamed_run_edges"
        case closedNamedRunEdges = "closed_named_run_edges"
        case rendezvousPoints = "rendezvous_points"
        case rendezvousPointsInLargestComponent = "rendezvous_points_in_largest_component"
    }

    public var liftTopShare: Double { Self.share(liftTopsReachingRun, liftTops) }
    public var runEndShare: Double { Self.share(runEndsReachingLift, runEnds) }
    public var componentNodeShare: Double { Self.share(largestStronglyConnectedComponent, nodes) }
    public var componentLiftEndShare: Double { Self.share(liftEndsInLargestComponent, liftEnds) }
    public var closedRunShare: Double { Self.share(closedRunEdges, runEdges) }

    public static func share(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : Double(part) / Double(whole) }

    public static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }

    public var description: String {
        "open lift tops reaching an open run \(liftTopsReachingRun)/\(liftTops) (\(Self.percent(liftTopShare))), "
            + "open run ends reaching an open lift \(runEndsReachingLift)/\(runEnds) (\(Self.percent(runEndShare))); "
            + "largest open strongly connected component \(largestStronglyConnectedComponent)/\(nodes) nodes (\(Self.percent(componentNodeShare))), "
            + "\(liftEndsInLargestComponent)/\(liftEnds) open lift ends (\(Self.percent(componentLiftEndShare))), "
            + "\(rendezvousPointsInLargestComponent)/\(rendezvousPoints) rendezvous points; "
            + "run edges closed \(closedRunEdges)/\(runEdges) (\(Self.percent(closedRunShare))): "
            + "\(closedUnnamedRunEdges) unnamed, \(closedNamedRunEdges) named but no identity"
    }
}

extension MountainGraph {
    public func routability() -> Routability {
        var result = Routability()
        result.nodes = nodes.count
        var outgoing = Array(repeating: [Int](), count: nodes.count)
        var hasRunOut = Array(repeating: false, count: nodes.count)
        var hasRunIn = Array(repeating: false, count: nodes.count)
        var hasLiftOut = Array(repeating: false, count: nodes.count)
        var isLiftEnd = Array(repeating: false, count: nodes.count)
        // A lift top is where a primary (base → top) lift chain ends.
        var chainEnds: [String: (index: Int, node: Int)] = [:]
        for (index, edge) in edges.enumerated() {
            guard let source = nodePosition(id: edge.sourceID), let target = nodePosition(id: edge.targetID) else { continue }
            if edge.kind == .run {
                result.runEdges += 1
                if !edge.attributes.isOpen {
                    result.closedRunEdges += 1
                    if edge.attributes.identityKey == nil {
                        if edge.attributes.trailName == nil { result.closedUnnamedRunEdges += 1 } else { result.closedNamedRunEdges += 1 }
                    }
                }
            }
            guard edge.attributes.isOpen else { continue }
            outgoing[source].append(index)
            switch edge.kind {
            case .run: hasRunOut[source] = true; hasRunIn[target] = true
            case .lift:
                hasLiftOut[source] = true
                if !edge.isReverseTwin {
                    let chain = edge.attributes.identityKey ?? edge.attributes.sourceWayId
                    let position = edge.attributes.chainIndex ?? 0
                    if position >= chainEnds[chain]?.index ?? -1 { chainEnds[chain] = (position, target) }
                    if position == 0 { isLiftEnd[source] = true }
                }
            case .traverse: break
            }
        }
        var isLiftTop = Array(repeating: false, count: nodes.count)
        for end in chainEnds.values {
            isLiftTop[end.node] = true
            isLiftEnd[end.node] = true
        }

        /// Whether a node satisfying `goal` is reachable over open connectors only.
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

        let component = Set(GraphComponents(self, include: { $0.attributes.isOpen }).largestStrongMembers)
        result.largestStronglyConnectedComponent = component.count
        for node in nodes.indices {
            if isLiftTop[node] {
                result.liftTops += 1
                if overConnectors(from: node, satisfies: { hasRunOut[$0] }) { result.liftTopsReachingRun += 1 }
            }
            if isLiftEnd[node] {
                result.liftEnds += 1
                if component.contains(node) { result.liftEndsInLargestComponent += 1 }
            }
            if hasRunIn[node] && !hasRunOut[node] {
                result.runEnds += 1
                if overConnectors(from: node, satisfies: { hasLiftOut[$0] }) { result.runEndsReachingLift += 1 }
            }
        }
        result.rendezvousPoints = rendezvousPoints.count
        result.rendezvousPointsInLargestComponent = rendezvousPoints.filter {
            nodePosition(id: $0.nodeId).map(component.contains) ?? false
        }.count
        return result
    }
}
