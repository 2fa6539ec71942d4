/// The floor a multi-criteria search is measured against: a plain
/// time-dependent Dijkstra on the same graph and the same per-skier edge
/// times, keeping only the fastest arrival per node, from both starts, and
/// the min-max over the rendezvous catalog.
public enum SingleCriterionDijkstra {
    public struct Outcome: Sendable, Equatable {
        public var rendezvousPointID: String?
        public var arrival: Double?
        public var settledNodes: Int
    }

    public static func solve(_ solver: MeetSolver, _ a: SkierStart, _ b: SkierStart) -> Outcome? {
        guard let contextA = solver.makeContext(for: a.skierID), let contextB = solver.makeContext(for: b.skierID),
              case let .success(startA) = solver.resolve(a, context: contextA),
              case let .success(startB) = solver.resolve(b, context: contextB) else { return nil }
        let (timesA, settledA) = fastest(contextA, startA)
        let (timesB, settledB) = fastest(contextB, startB)
        var best: (id: String, arrival: Double)?
        for entry in solver.environment.graph.rendezvous {
            let ta = timesA[Int(entry.node)], tb = timesB[Int(entry.node)]
            guard ta.isFinite, tb.isFinite else { continue }
            let arrival = max(ta, tb)
            if best == nil || arrival < best!.arrival { best = (entry.point.id, arrival) }
        }
        return Outcome(rendezvousPointID: best?.id, arrival: best?.arrival, settledNodes: settledA + settledB)
    }

    /// Earliest arrival per node (infinity where unreachable), and how many nodes were settled.
    static func fastest(_ context: TraversalContext, _ start: ResolvedStart) -> ([Double], Int) {
        let graph = context.environment.graph
        var times = Array(repeating: Double.infinity, count: graph.nodeCount)
        var heap = TimeHeap()
        switch start.place {
        case let .node(node):
            times[Int(node)] = 0
            heap.push(0, node)
        case let .edge(edge, fraction):
            guard let cost = context.remainderCost(of: Int(edge), fraction: fraction, at: context.moment(at: 0)) else { return (times, 0) }
            let target = graph.edges[Int(edge)].target
            times[Int(target)] = cost.time
            heap.push(cost.time, target)
        }
        var settled = 0
        while let (time, node) = heap.pop() {
            if time > times[Int(node)] { continue }
            settled += 1
            let begin = Int(graph.outStart[Int(node)]), end = Int(graph.outStart[Int(node) + 1])
            guard begin < end else { continue }
            let moment = context.moment(at: time, needsSun: graph.sunMatters[Int(node)])
            for position in begin..<end {
                let edgeIndex = Int(graph.outgoing[position])
                guard let cost = context.cost(of: edgeIndex, at: moment) else { continue }
                let target = graph.edges[edgeIndex].target
                let arrival = time + cost.time
                if arrival < times[Int(target)] {
                    times[Int(target)] = arrival
                    heap.push(arrival, target)
                }
            }
        }
        return (times, settled)
    }

    /// A binary min-heap of (time, node).
    struct TimeHeap {
        private var items: [(Double, Int32)] = []

        mutating func push(_ time: Double, _ node: Int32) {
            items.append((time, node))
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child] < items[parent] else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> (Double, Int32)? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < items.count && items[left] < items[smallest] { smallest = left }
                    if right < items.count && items[right] < items[smallest] { smallest = right }
                    if smallest == parent { break }
                    items.swapAt(parent, smallest)
                    parent = smallest
                }
            }
            return top
        }
    }
}
