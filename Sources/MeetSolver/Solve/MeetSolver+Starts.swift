extension MeetSolver {
    /// Checks a start against the graph as it is now. Nodes and edges must
    /// exist (an edge start must also be usable now); a fix must be
    /// routing-grade and within 36 m of an open edge. Nothing is ever
    /// substituted for a start that does not resolve.
    func resolve(_ start: SkierStart, context: TraversalContext) -> Result<ResolvedStart, MeetFailure> {
        let graph = environment.graph
        func failure(_ reason: String) -> Result<ResolvedStart, MeetFailure> {
            .failure(.startUnresolved(skierID: start.skierID, reason: reason))
        }
        switch start.origin {
        case let .node(id):
            guard let node = graph.nodeIndex[id] else { return failure("node \(id) is not in this dataset") }
            return .success(ResolvedStart(place: .node(node), accuracyMeters: start.accuracyMeters, origin: start.origin))
        case let .edge(id, fraction):
            guard let edge = graph.edgeIndex[id] else { return failure("edge \(id) is not in this dataset") }
            guard fraction.isFinite, fraction >= 0, fraction <= 1 else { return failure("the fraction along \(id) must be within 0…1") }
            let quantized = RoutingOrigin.quantize(fraction)
            guard context.remainderCost(of: Int(edge), fraction: quantized, at: context.moment(at: 0)) != nil else {
                return failure("edge \(id) is closed or beyond this skier's ability")
            }
            return .success(ResolvedStart(place: .edge(edge, fraction: quantized), accuracyMeters: start.accuracyMeters,
                                          origin: .edge(id, fraction: quantized)))
        case let .fix(fix):
            if let problem = fix.routingGradeProblem(now: now, resortID: dataset.graph.resortID) {
                return failure(problem)
            }
            guard let nearest = graph.projection.nearest(to: .init(lat: fix.lat, lon: fix.lon)) else {
                return failure("the fix is more than \(Int(ProjectionLimits.maximumDistance)) m from every open run, lift and connector")
            }
            let id = graph.edgeIDs[Int(nearest.edge)]
            guard context.remainderCost(of: Int(nearest.edge), fraction: nearest.fraction, at: context.moment(at: 0)) != nil else {
                return failure("the nearest edge \(id) is beyond this skier's ability")
            }
            return .success(ResolvedStart(place: .edge(nearest.edge, fraction: nearest.fraction),
                                          accuracyMeters: fix.accuracyMeters ?? start.accuracyMeters,
                                          origin: .edge(id, fraction: nearest.fraction)))
        }
    }
}
