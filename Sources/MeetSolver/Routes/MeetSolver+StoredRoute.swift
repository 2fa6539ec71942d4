extension MeetSolver {
    /// Checks a stored route all-or-nothing against this dataset: every edge
    /// exists, they connect, the first begins at the stored exact start, the
    /// last ends at the rendezvous point's node, and every edge can be taken
    /// when reached. Returns the route re-costed now (with its uncertainty).
    public func validateStoredRoute(_ edgeIDs: [String], origin: RoutingOrigin, accuracyMeters: Double? = nil,
                                    skierID: String, rendezvousPointID: String) -> Result<RouteMetrics, StoredRouteProblem> {
        let graph = environment.graph
        guard let target = graph.rendezvous.first(where: { $0.point.id == rendezvousPointID }) else {
            return .failure(.unknownRendezvousPoint(rendezvousPointID))
        }
        guard let context = makeContext(for: skierID) else { return .failure(.wrongStart("no profile for \(skierID)")) }
        let start: ResolvedStart
        switch resolve(SkierStart(skierID: skierID, origin: origin, accuracyMeters: accuracyMeters), context: context) {
        case let .success(value): start = value
        case let .failure(failure): return .failure(.wrongStart(failure.explanation))
        }
        let endNode: Int32
        if let last = edgeIDs.last {
            guard let index = graph.edgeIndex[last] else { return .failure(.unknownEdge(last)) }
            endNode = graph.edges[Int(index)].target
        } else {
            guard case let .node(node) = start.place else { return .failure(.wrongStart("an empty route needs a node start")) }
            endNode = node
        }
        guard endNode == target.node else {
            return .failure(.wrongEnd("it ends at \(graph.nodeIDs[Int(endNode)]), the meeting point is \(target.point.nodeId)"))
        }
        return recost(edgeIDs, from: start, context, departure: departureOffset)
    }

    /// Activation of a received or recovered meet for one skier: the stored
    /// route if it still holds exactly, else a strict re-solve from the same
    /// exact start to the same meeting point, else the failure. The meeting
    /// point never changes.
    public func activate(storedRoute edgeIDs: [String], origin: RoutingOrigin, accuracyMeters: Double? = nil,
                         skierID: String, rendezvousPointID: String) -> Result<Activation, PathFailure> {
        switch validateStoredRoute(edgeIDs, origin: origin, accuracyMeters: accuracyMeters, skierID: skierID, rendezvousPointID: rendezvousPointID) {
        case let .success(metrics):
            return .success(Activation(edgeIDs: edgeIDs, metrics: metrics, storedRouteProblem: nil))
        case let .failure(problem):
            if case .unknownRendezvousPoint = problem { return .failure(.unknownRendezvousPoint(rendezvousPointID)) }
            switch pathTo(rendezvousPointID: rendezvousPointID, from: SkierStart(skierID: skierID, origin: origin, accuracyMeters: accuracyMeters)) {
            case let .success(route):
                let metrics = RouteMetrics(mean: route.eta, std: route.etaStd, legTimes: route.legTimes, legStds: route.legStds, actions: route.actions)
                return .success(Activation(edgeIDs: route.edgeIDs, metrics: metrics, storedRouteProblem: problem))
            case let .failure(failure):
                return .failure(failure)
            }
        }
    }

    /// Seconds from the solve bucket to now: routes re-costed for activation
    /// or ETA leave now, not at the start of the 15-minute bucket.
    var departureOffset: Double { environment.solveTime.map { max(0, now - $0) } ?? 0 }
}

/// The route a skier follows after activation.
public struct Activation: Sendable, Equatable {
    public var edgeIDs: [String]
    public var metrics: RouteMetrics
    /// Why the stored route was replaced, or nil when it was used as stored.
    public var storedRouteProblem: StoredRouteProblem?
}
