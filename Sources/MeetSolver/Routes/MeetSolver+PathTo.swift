extension MeetSolver {
    /// One skier's route to one rendezvous point (solo previews, and the
    /// exact-start re-solve when a stored route no longer holds): the label
    /// there with the least `t + 0.5·σ`, then time, actions, creation order.
    /// The same strict rules as a meet; nothing is relaxed.
    public func pathTo(rendezvousPointID: String, from start: SkierStart, mode: SolveMode = .live) -> Result<MeetRoute, PathFailure> {
        if mode == .live && !dataset.isCanonical { return .failure(.meet(.nonCanonicalDataset)) }
        if let usability = statusUsability, !usability.isUsable { return .failure(.meet(.operationalStatusUnavailable(usability))) }
        guard let context = makeContext(for: start.skierID) else {
            return .failure(.meet(.startUnresolved(skierID: start.skierID, reason: "the solver was given no profile for this skier")))
        }
        guard let target = environment.graph.rendezvous.first(where: { $0.point.id == rendezvousPointID }) else {
            return .failure(.unknownRendezvousPoint(rendezvousPointID))
        }
        let resolved: ResolvedStart
        switch resolve(start, context: context) {
        case let .success(value): resolved = value
        case let .failure(failure): return .failure(.meet(failure))
        }
        let forest = LabelSearch.run(context, from: resolved, rules: .strict)
        let labels = forest.labels(at: target.node)
        guard let best = labels.min(by: { a, b in
            let x = forest.labels[Int(a)], y = forest.labels[Int(b)]
            let keyX = (Milliseconds.rounded(x.cautiousTime), Milliseconds.rounded(x.time), x.actions)
            let keyY = (Milliseconds.rounded(y.cautiousTime), Milliseconds.rounded(y.time), y.actions)
            return keyX != keyY ? keyX < keyY : a < b
        }) else {
            func reaches(_ rules: RoutingRules) -> Bool {
                LabelSearch.run(context, from: resolved, rules: rules).counts[Int(target.node)] > 0
            }
            if reaches(.withoutAbilityGates) { return .failure(.meet(.abilityGated)) }
            if reaches(.withoutClosures) { return .failure(.meet(.closures)) }
            return .failure(.meet(.noRoute))
        }
        return .success(route(forest, to: best, context, resolved))
    }
}

/// Why a single-skier route was not produced.
public enum PathFailure: Error, Sendable, Equatable {
    case meet(MeetFailure)
    case unknownRendezvousPoint(String)

    public var code: String {
        switch self {
        case let .meet(failure): return failure.code
        case .unknownRendezvousPoint: return "unknownRendezvousPoint"
        }
    }

    public var explanation: String {
        switch self {
        case let .meet(failure): return failure.explanation
        case let .unknownRendezvousPoint(id):
            return "rendezvous point \(id) is not in this dataset's catalog; pick one of the dataset's rendezvous points"
        }
    }
}
