/// An exact edge sequence re-costed on the solver's model.
public struct RouteMetrics: Sendable, Equatable, Codable {
    /// Mean seconds from departure to the end of the last edge.
    public var mean: Double
    public var std: Double
    public var legTimes: [Double]
    public var legStds: [Double]
    public var actions: Int
}

/// Why a stored route cannot be used as it is.
public enum StoredRouteProblem: Error, Sendable, Equatable {
    case unknownEdge(String)
    case disconnected(after: String, before: String)
    case wrongStart(String)
    case wrongEnd(String)
    case untraversable(String)
    case unknownRendezvousPoint(String)

    public var explanation: String {
        switch self {
        case let .unknownEdge(id): return "edge \(id) is not in this dataset"
        case let .disconnected(after, before): return "edge \(before) does not start where \(after) ends"
        case let .wrongStart(detail): return "the route does not begin at its stored start (\(detail))"
        case let .wrongEnd(detail): return "the route does not end at the meeting point (\(detail))"
        case let .untraversable(id): return "edge \(id) cannot be taken now (closed, gated or out of hours)"
        case let .unknownRendezvousPoint(id): return "rendezvous point \(id) is not in this dataset's catalog"
        }
    }
}

extension MeetSolver {
    /// Re-costs an exact path for a skier, time-dependent from `departure`
    /// seconds after the solve time, with the start's GPS variance and the
    /// same action grouping as the search. Nil if any edge is unknown or
    /// cannot be taken when reached, or the edges do not connect.
    public func metrics(for path: [String], skierID: String, origin: RoutingOrigin, accuracyMeters: Double? = nil,
                        departure: Double = 0) -> RouteMetrics? {
        guard let context = makeContext(for: skierID) else { return nil }
        guard case let .success(start) = resolve(SkierStart(skierID: skierID, origin: origin, accuracyMeters: accuracyMeters), context: context) else {
            return nil
        }
        guard case let .success(metrics) = recost(path, from: start, context, departure: departure) else { return nil }
        return metrics
    }

    /// The re-costing behind `metrics`, saying what failed.
    func recost(_ path: [String], from start: ResolvedStart, _ context: TraversalContext, departure: Double) -> Result<RouteMetrics, StoredRouteProblem> {
        let graph = environment.graph
        var indices: [Int32] = []
        for id in path {
            guard let index = graph.edgeIndex[id] else { return .failure(.unknownEdge(id)) }
            indices.append(index)
        }
        for (before, after) in zip(indices, indices.dropFirst()) where graph.edges[Int(before)].target != graph.edges[Int(after)].source {
            return .failure(.disconnected(after: graph.edgeIDs[Int(before)], before: graph.edgeIDs[Int(after)]))
        }
        var label: Label
        var remaining = indices[...]
        switch start.place {
        case let .node(node):
            if let first = indices.first, graph.edges[Int(first)].source != node {
                return .failure(.wrongStart("\(graph.edgeIDs[Int(first)]) does not leave \(graph.nodeIDs[Int(node)])"))
            }
            label = Label(time: departure, done: LabelSearch.initialVariance(context, start, startSpeed: nil), current: 0,
                          actions: 0, actionKey: -1, predecessor: -1, via: -1, node: node)
        case let .edge(edge, fraction):
            guard indices.first == edge else {
                return .failure(.wrongStart("a route from partway along \(graph.edgeIDs[Int(edge)]) must begin with that edge"))
            }
            let moment = context.moment(at: departure)
            guard let part = context.remainderCost(of: Int(edge), fraction: fraction, at: moment),
                  let full = context.remainderCost(of: Int(edge), fraction: 0, at: moment) else {
                return .failure(.untraversable(graph.edgeIDs[Int(edge)]))
            }
            let routing = graph.edges[Int(edge)]
            let speed = full.time > 0 ? routing.lengthMeters / full.time : nil
            label = Label(time: departure + part.time, done: LabelSearch.initialVariance(context, start, startSpeed: speed),
                          current: part.std, actions: 1, actionKey: routing.actionKey, predecessor: -1, via: edge, node: routing.target)
            remaining = indices.dropFirst()
        }
        var legTimes: [Double] = [], legStds: [Double] = []
        if case .edge = start.place { legTimes.append(label.time - departure); legStds.append(label.current) }
        for index in remaining {
            guard let cost = context.cost(of: Int(index), at: context.moment(at: label.time)) else {
                return .failure(.untraversable(graph.edgeIDs[Int(index)]))
            }
            let edge = graph.edges[Int(index)]
            label = label.extended(by: cost, edge: index, actionKey: edge.actionKey, to: edge.target, from: -1)
            legTimes.append(cost.time)
            legStds.append(cost.std)
        }
        return .success(RouteMetrics(mean: label.time - departure, std: label.variance.squareRoot(),
                                     legTimes: legTimes, legStds: legStds, actions: Int(label.actions)))
    }
}
