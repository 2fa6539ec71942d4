/// One skier's multi-criteria search: from the start, every node gets up to
/// eight labels that no other label beats on time, variance, current-action
/// uncertainty and action count; edge times are evaluated when the skier
/// would enter them. Runs until nothing is left to extend.
enum LabelSearch {
    static func run(_ context: TraversalContext, from start: ResolvedStart, rules: RoutingRules) -> LabelForest {
        let graph = context.environment.graph
        var workspace = SearchWorkspace(nodeCount: graph.nodeCount, edgeCount: graph.edgeCount)
        run(context, from: start, rules: rules, in: &workspace)
        return workspace.forest
    }

    /// The search in a workspace made or reset for this graph; the forest
    /// is left in `workspace.forest`.
    static func run(_ context: TraversalContext, from start: ResolvedStart, rules: RoutingRules, in workspace: inout SearchWorkspace) {
        guard let first = startLabel(context, start, rules) else { return }
        if let id = workspace.forest.offer(first) { workspace.heap.push(id, workspace.forest.labels) }
        search(context, rules, &workspace.forest, &workspace.heap, &workspace.memo)
    }

    /// Extends labels in heap order until none is left.
    private static func search(_ context: TraversalContext, _ rules: RoutingRules,
                               _ forest: inout LabelForest, _ heap: inout LabelHeap, _ memo: inout EdgeCostMemo) {
        let graph = context.environment.graph
        let outStart = graph.outStart, outEdges = graph.outEdges, sunMatters = graph.sunMatters
        while let id = heap.pop(forest.labels) {
            if forest.evicted[Int(id)] { continue }
            let label = forest.labels[Int(id)]
            let begin = Int(outStart[Int(label.node)]), end = Int(outStart[Int(label.node) + 1])
            guard begin < end else { continue }
            let moment = context.moment(at: label.time, needsSun: sunMatters[Int(label.node)])
            let weather = memo.key(for: moment.weather)
            for position in begin..<end {
                let edge = outEdges[position]
                guard let cost = context.cost(along: edge, position: position, at: moment, weather: weather, rules: rules, memo: &memo) else {
                    continue
                }
                let next = label.extended(by: cost, edge: edge.index, actionKey: edge.actionKey, to: edge.target, from: id)
                // A label where nothing leads on is kept but never extended: it needs no turn in the heap.
                if let nextID = forest.offer(next), edge.targetLeadsOn {
                    heap.push(nextID, forest.labels)
                }
            }
        }
    }

    /// The first label: at the start node, or at the end of the start edge
    /// with only its remainder charged.
    static func startLabel(_ context: TraversalContext, _ start: ResolvedStart, _ rules: RoutingRules) -> Label? {
        switch start.place {
        case let .node(node):
            return Label(time: 0, done: initialVariance(context, start, startSpeed: nil), current: 0, actions: 0,
                         actionKey: -1, predecessor: -1, via: -1, node: node)
        case let .edge(edge, fraction):
            let moment = context.moment(at: 0)
            guard let remainder = context.remainderCost(of: Int(edge), fraction: fraction, at: moment, rules: rules),
                  let full = context.remainderCost(of: Int(edge), fraction: 0, at: moment, rules: rules) else { return nil }
            let routing = context.environment.graph.edges[Int(edge)]
            let speed = full.time > 0 ? routing.lengthMeters / full.time : nil
            return Label(time: remainder.time, done: initialVariance(context, start, startSpeed: speed), current: remainder.std,
                         actions: 1, actionKey: routing.actionKey, predecessor: -1, via: edge, node: routing.target)
        }
    }

    /// GPS uncertainty as time: accuracy over the speed on the start edge (at least 1.5 m/s).
    static func initialVariance(_ context: TraversalContext, _ start: ResolvedStart, startSpeed: Double?) -> Double {
        guard let accuracy = start.accuracyMeters, accuracy > 0 else { return 0 }
        let sigma = accuracy / max(1.5, startSpeed ?? 1.5)
        return sigma * sigma
    }
}
