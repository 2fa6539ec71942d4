/// The live arrival estimate of an active meet, or the demand for a reroute.
public enum ActiveETA: Sendable, Equatable {
    case eta(RouteMetrics)
    /// An unfinished edge can no longer be taken (closed, or a lift reached
    /// after closing): never skip it for a shorter-looking ETA; reroute.
    case rerouteRequired(edgeID: String, reason: String)
    /// Without usable status there is no live ETA.
    case statusUnavailable(StatusUsability)
}

extension MeetSolver {
    /// Re-costs exactly the edges still ahead, leaving now: the current edge
    /// (`remaining[0]`) from `fraction` onward when the skier is on it, every
    /// later edge in full.
    public func activeETA(remaining: [String], currentEdgeFraction fraction: Double?, skierID: String,
                          accuracyMeters: Double? = nil) -> ActiveETA {
        if let usability = statusUsability, !usability.isUsable { return .statusUnavailable(usability) }
        let graph = environment.graph
        guard let first = remaining.first else {
            return .eta(RouteMetrics(mean: 0, std: 0, legTimes: [], legStds: [], actions: 0))
        }
        guard let firstIndex = graph.edgeIndex[first] else { return .rerouteRequired(edgeID: first, reason: "the edge is not in this dataset") }
        let origin: RoutingOrigin = fraction.map { .edge(first, fraction: $0) } ?? .node(graph.nodeIDs[Int(graph.edges[Int(firstIndex)].source)])
        guard let context = makeContext(for: skierID) else {
            return .rerouteRequired(edgeID: first, reason: "the solver was given no profile for \(skierID)")
        }
        let start: ResolvedStart
        switch resolve(SkierStart(skierID: skierID, origin: origin, accuracyMeters: accuracyMeters), context: context) {
        case let .success(value): start = value
        case .failure: return .rerouteRequired(edgeID: first, reason: "the current edge can no longer be taken")
        }
        switch recost(remaining, from: start, context, departure: departureOffset) {
        case let .success(metrics): return .eta(metrics)
        case let .failure(.untraversable(id)): return .rerouteRequired(edgeID: id, reason: "the edge cannot be taken when it is reached")
        case let .failure(problem): return .rerouteRequired(edgeID: first, reason: problem.explanation)
        }
    }
}
