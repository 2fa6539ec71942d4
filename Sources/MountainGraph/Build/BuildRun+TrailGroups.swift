extension BuildRun {
    /// Stable group ids: claimed edges by identity (`g<t|l><min way id>`),
    /// unclaimed named runs by name and difficulty across shared nodes,
    /// unnamed runs and unclaimed lifts by way, connectors by connected
    /// component. Ids come from way ids, never from a counter.
    mutating func assignTrailGroups() {
        var runSets = UnionFind(count: edges.count)
        var connectorSets = UnionFind(count: edges.count)
        var runKeys: [Int: String] = [:]
        var runAtVertex: [RunVertexKey: Int] = [:]
        var connectorAtVertex: [Int: Int] = [:]
        // Unicode normalisation is costly and pieces of one way share a name.
        var normalizedNames: [String: String] = [:]

        for index in edges.indices where claimedBy[edges[index].way] == nil {
            let edge = edges[index]
            switch edge.edge.kind {
            case .run:
                guard let name = edge.edge.attributes.trailName else { continue }
                let normalized: String
                if let cached = normalizedNames[name] {
                    normalized = cached
                } else {
                    normalized = TrailNames.normalizedKey(name)
                    normalizedNames[name] = normalized
                }
                guard !normalized.isEmpty else { continue }
                let key = normalized + "|" + (edge.edge.attributes.difficulty.map { String($0.rawValue) } ?? "none")
                runKeys[index] = key
                for vertex in [edge.sourceVertex, edge.targetVertex] {
                    let slot = RunVertexKey(vertex: vertex, key: key)
                    if let other = runAtVertex[slot] { runSets.union(index, other) } else { runAtVertex[slot] = index }
                }
            case .traverse:
                for vertex in [edge.sourceVertex, edge.targetVertex] {
                    if let other = connectorAtVertex[vertex] { connectorSets.union(index, other) } else { connectorAtVertex[vertex] = index }
                }
            case .lift:
                continue
            }
        }

        // Smallest way id per component root.
        var runMinimum: [Int: Int64] = [:]
        var connectorMinimum: [Int: Int64] = [:]
        for index in edges.indices where claimedBy[edges[index].way] == nil {
            let wayID = ways[edges[index].way].id
            switch edges[index].edge.kind {
            case .run where runKeys[index] != nil:
                let root = runSets.find(index)
                runMinimum[root] = min(runMinimum[root] ?? .max, wayID)
            case .traverse:
                let root = connectorSets.find(index)
                connectorMinimum[root] = min(connectorMinimum[root] ?? .max, wayID)
            default:
                break
            }
        }

        for index in edges.indices {
            let way = edges[index].way
            let group: String
            if let owner = claimedBy[way] {
                let identity = identities[owner]
                let minimum = identity.ways.map { ways[$0].id }.min()!
                group = "g" + (identity.kind == .lift ? "l" : "t") + String(minimum)
            } else {
                switch edges[index].edge.kind {
                case .run:
                    if runKeys[index] != nil {
                        group = "gt" + String(runMinimum[runSets.find(index)]!)
                    } else {
                        group = "gt" + String(ways[way].id)
                    }
                case .lift:
                    group = "gl" + String(ways[way].id)
                case .traverse:
                    group = "gc" + String(connectorMinimum[connectorSets.find(index)]!)
                }
            }
            edges[index].edge.attributes.trailGroupId = group
        }
    }

    private struct RunVertexKey: Hashable {
        let vertex: Int
        let key: String
    }
}
