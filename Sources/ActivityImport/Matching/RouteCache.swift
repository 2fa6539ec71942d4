/// Shortest directed routes between matcher candidates, with a bounded
/// Dijkstra per start node, remembered for the length of one section.
struct RouteCache {
    let index: EdgeIndex
    /// Which edges a route may use (runs and connectors, or lifts).
    let allowed: [Bool]
    /// Start node → (node → (distance, the edge that reached it)).
    private var trees: [Int: [Int: (distance: Double, via: Int)]] = [:]
    static let horizon = 2_000.0

    init(index: EdgeIndex, allowed: [Bool]) {
        self.index = index
        self.allowed = allowed
    }

    /// Metres along the graph from one candidate to the next, or nil when no
    /// route within `limit` respects the edges' direction. Going backwards a
    /// little on the same edge is GPS noise and costs nothing extra.
    mutating func distance(from a: TrailMatcher.Candidate, to b: TrailMatcher.Candidate, limit: Double) -> Double? {
        if a.edge == b.edge {
            let along = b.offset - a.offset
            return along >= -25 ? max(along, 0) : nil
        }
        let rest = index.edgeLength[a.edge] - a.offset
        guard rest + b.offset <= limit else { return nil }
        let tree = self.tree(from: index.edgeTarget[a.edge])
        guard let reach = tree[index.edgeSource[b.edge]] else { return nil }
        let total = rest + reach.distance + b.offset
        return total <= limit ? total : nil
    }

    /// The edges strictly between `a`'s edge and `b`'s edge on the shortest route.
    mutating func path(from a: TrailMatcher.Candidate, to b: TrailMatcher.Candidate) -> [Int] {
        let start = index.edgeTarget[a.edge]
        let tree = self.tree(from: start)
        var node = index.edgeSource[b.edge]
        var edges: [Int] = []
        while node != start, let step = tree[node], step.via >= 0 {
            edges.append(step.via)
            node = index.edgeSource[step.via]
            if edges.count > 500 { break }
        }
        return edges.reversed()
    }

    private mutating func tree(from start: Int) -> [Int: (distance: Double, via: Int)] {
        if let tree = trees[start] { return tree }
        var best: [Int: (distance: Double, via: Int)] = [start: (0, -1)]
        var frontier: [(distance: Double, node: Int)] = [(0, start)]
        while let next = frontier.popMin() {
            guard let known = best[next.node], next.distance <= known.distance else { continue }
            for edge in index.outgoing[next.node] where allowed[edge] {
                let distance = next.distance + index.edgeLength[edge]
                guard distance <= Self.horizon else { continue }
                let target = index.edgeTarget[edge]
                if let existing = best[target], existing.distance <= distance { continue }
                best[target] = (distance, edge)
                frontier.append((distance, target))
            }
        }
        trees[start] = best
        return best
    }
}

extension Array where Element == (distance: Double, node: Int) {
    /// Removes and returns the smallest element (the frontiers here hold a handful of nodes).
    mutating func popMin() -> Element? {
        guard let position = indices.min(by: { self[$0].distance < self[$1].distance }) else { return nil }
        return remove(at: position)
    }
}
