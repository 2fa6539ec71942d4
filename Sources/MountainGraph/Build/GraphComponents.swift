/// Weak and strong connectivity of a graph, for reports.
struct GraphComponents {
    let weakCount: Int
    /// Node positions of the largest strongly connected component (the
    /// smallest node position decides between equal sizes).
    let largestStrongMembers: [Int]
    var largestStrong: Int { largestStrongMembers.count }

    /// Over the edges `include` keeps (all of them by default).
    init(_ graph: MountainGraph, include: (GraphEdge) -> Bool = { _ in true }) {
        let count = graph.nodes.count
        var adjacency = Array(repeating: [Int](), count: count)
        var weak = UnionFind(count: count)
        for edge in graph.edges where include(edge) {
            guard let s = graph.nodePosition(id: edge.sourceID), let t = graph.nodePosition(id: edge.targetID) else { continue }
            adjacency[s].append(t)
            weak.union(s, t)
        }
        weakCount = Set((0..<count).map { weak.find($0) }).count
        largestStrongMembers = Self.largestStronglyConnected(adjacency)
    }

    /// Tarjan's algorithm, iterative so large resorts cannot overflow the stack.
    private static func largestStronglyConnected(_ adjacency: [[Int]]) -> [Int] {
        let count = adjacency.count
        var order = Array(repeating: -1, count: count)
        var low = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var stack: [Int] = []
        var counter = 0
        var largest: [Int] = []
        for root in 0..<count where order[root] == -1 {
            var work: [(node: Int, next: Int)] = [(root, 0)]
            order[root] = counter; low[root] = counter; counter += 1
            stack.append(root); onStack[root] = true
            while let (node, next) = work.last {
                if next < adjacency[node].count {
                    work[work.count - 1].next += 1
                    let target = adjacency[node][next]
                    if order[target] == -1 {
                        order[target] = counter; low[target] = counter; counter += 1
                        stack.append(target); onStack[target] = true
                        work.append((target, 0))
                    } else if onStack[target] {
                        low[node] = min(low[node], order[target])
                    }
                } else {
                    work.removeLast()
                    if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                    if low[node] == order[node] {
                        var members: [Int] = []
                        while true {
                            let member = stack.removeLast()
                            onStack[member] = false
                            members.append(member)
                            if member == node { break }
                        }
                        members.sort()
                        if members.count > largest.count || (members.count == largest.count && members[0] < largest[0]) {
                            largest = members
                        }
                    }
                }
            }
        }
        return largest
    }
}
