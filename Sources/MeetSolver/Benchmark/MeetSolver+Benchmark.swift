/// What a benchmark needs to set up its baselines on exactly the solver's graph.
extension MeetSolver {
    /// The position of a node in the solved graph (node ids in byte order).
    package func nodeIndex(of id: String) -> Int? { environment.graph.nodeIndex[id].map(Int.init) }

    /// One edge with each skier's time on it when entered at the solve
    /// instant (nil where that skier may not take it): static costs for a
    /// single-criterion router that has no clock.
    package struct StaticEdgeCost: Sendable {
        package var index: Int
        package var source: Int
        package var target: Int
        package var costs: [Double?]
    }

    package func staticCosts(skierIDs: [String]) -> [StaticEdgeCost] {
        let contexts = skierIDs.compactMap(makeContext(for:))
        let moments = contexts.map { $0.moment(at: 0) }
        return environment.graph.edges.enumerated().map { index, edge in
            StaticEdgeCost(index: index, source: Int(edge.source), target: Int(edge.target),
                           costs: zip(contexts, moments).map { context, moment in context.cost(of: index, at: moment)?.time })
        }
    }

    /// How many nodes a skier can reach from a start.
    package func reachableCount(from start: SkierStart) -> Int {
        guard let context = makeContext(for: start.skierID), case let .success(resolved) = resolve(start, context: context) else { return 0 }
        return SingleCriterionDijkstra.fastest(context, resolved).0.filter(\.isFinite).count
    }

    /// The mean number of labels standing per reached node after one
    /// skier's strict label search: how much more than one path per node the
    /// multi-criteria search carries.
    package func labelsPerReachedNode(from start: SkierStart) -> Double {
        guard let context = makeContext(for: start.skierID), case let .success(resolved) = resolve(start, context: context) else { return 0 }
        let forest = LabelSearch.run(context, from: resolved, rules: .strict)
        let reached = forest.counts.filter { $0 > 0 }
        return reached.isEmpty ? 0 : Double(reached.reduce(0) { $0 + Int($1) }) / Double(reached.count)
    }
}
