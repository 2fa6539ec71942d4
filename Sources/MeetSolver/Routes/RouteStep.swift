import MountainGraph

/// One action of a route as a person reads it: a run, a lift ride or a
/// connector, with its name and how long it takes.
public struct RouteStep: Sendable, Equatable, Codable {
    public var kind: String
    public var name: String
    public var difficulty: String?
    public var edgeIDs: [String]
    public var time: Double
    /// Edge uncertainties within one action move together, so they add.
    public var std: Double
    public var fromNodeID: String
    public var toNodeID: String
}

extension MeetSolver {
    /// A route's legs grouped into actions, named from the graph.
    public func steps(of route: MeetRoute) -> [RouteStep] {
        let graph = environment.graph
        var steps: [RouteStep] = []
        var lastKey: Int32 = -1
        for (position, id) in route.edgeIDs.enumerated() {
            guard let index = graph.edgeIndex[id] else { continue }
            let edge = graph.edges[Int(index)]
            let time = position < route.legTimes.count ? route.legTimes[position] : 0
            let std = position < route.legStds.count ? route.legStds[position] : 0
            if edge.actionKey == lastKey, var step = steps.popLast() {
                step.edgeIDs.append(id)
                step.time += time
                step.std += std
                step.toNodeID = graph.nodeIDs[Int(edge.target)]
                steps.append(step)
            } else {
                let source = graph.graph.edges[Int(index)]
                let name = source.attributes.trailName
                    ?? source.attributes.identityKey.map { String($0.drop { $0 != ":" }.dropFirst()) }
                    ?? (edge.kind == .traverse ? "connector" : "unnamed \(edge.kind.rawValue)")
                steps.append(RouteStep(kind: edge.kind.rawValue, name: name, difficulty: edge.difficulty?.wireName,
                                       edgeIDs: [id], time: time, std: std,
                                       fromNodeID: graph.nodeIDs[Int(edge.source)], toNodeID: graph.nodeIDs[Int(edge.target)]))
            }
            lastKey = edge.actionKey
        }
        return steps
    }
}
