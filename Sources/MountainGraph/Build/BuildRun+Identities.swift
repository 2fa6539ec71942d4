extension BuildRun {
    /// Applies the canonical rows: overlays their attributes on claimed edges,
    /// closes unclaimed edges, checks that each identity is one simple directed
    /// chain per direction, and allocates official totals once per chain.
    mutating func applyIdentities() {
        let hasTrailRows = !(manifest?.trails.isEmpty ?? true)
        let hasLiftRows = !(manifest?.lifts.isEmpty ?? true)

        for index in edges.indices {
            let way = edges[index].way
            if let owner = claimedBy[way] {
                overlay(identities[owner], on: index)
            } else {
                switch edges[index].edge.kind {
                case .run: if hasTrailRows { edges[index].edge.attributes.isOpen = false }
                case .lift: if hasLiftRows { edges[index].edge.attributes.isOpen = false }
                case .traverse: break
                }
            }
            // Grooming left unknown by tags and rows follows the difficulty.
            if edges[index].edge.kind == .run, edges[index].edge.attributes.isGroomed == nil,
               ways[way].tags["piste:grooming"] == nil {
                switch edges[index].edge.attributes.difficulty {
                case .terrainPark?: edges[index].edge.attributes.isGroomed = true
                case .doubleBlack?: edges[index].edge.attributes.isGroomed = false
                default: break
                }
            }
        }

        for identity in identities where !identity.ways.isEmpty {
            guard let chains = directedChains(of: identity) else { continue }
            for chain in chains {
                for (position, edge) in chain.enumerated() {
                    edges[edge].edge.attributes.chainIndex = position
                    edges[edge].edge.attributes.queueEntry = identity.kind == .lift && position == 0
                }
                allocateOfficialTotals(identity, over: chain)
            }
            graphIdentities.append(GraphIdentity(
                kind: identity.kind, name: identity.name, wayIDs: identity.ways.map { ways[$0].id },
                chains: chains.map { $0.map { edges[$0].edge.id } }))
        }
    }

    private mutating func overlay(_ identity: ResolvedIdentity, on index: Int) {
        var a = edges[index].edge.attributes
        a.isOfficiallyValidated = true
        a.identityKey = identity.key
        a.trailName = identity.name
        if let trail = identity.trail {
            if let difficulty = trail.difficulty, edges[index].edge.kind == .run { a.difficulty = difficulty }
            a.hasMoguls = trail.hasMoguls
            if let groomed = trail.isGroomed { a.isGroomed = groomed }
            a.isGladed = trail.isGladed
        }
        if let lift = identity.lift {
            if let type = lift.liftType { a.liftType = type }
            if let capacity = lift.capacity { a.liftCapacity = capacity }
            a.hasMoguls = false
            a.isGroomed = false
            a.isGladed = false
        }
        edges[index].edge.attributes = a
    }

    /// One ordered edge list per direction (primary, then `_r`), or nil after
    /// recording why the identity is not a single simple path.
    private mutating func directedChains(of identity: ResolvedIdentity) -> [[Int]]? {
        let members = identity.ways.flatMap { edgesOfWay[$0] }
        let wayIDs = identity.ways.map { ways[$0].id }

        // Undirected connectivity over shared nodes.
        var local: [Int: Int] = [:]
        for edge in members {
            for vertex in [edges[edge].sourceVertex, edges[edge].targetVertex] where local[vertex] == nil {
                local[vertex] = local.count
            }
        }
        var sets = UnionFind(count: local.count)
        for edge in members { sets.union(local[edges[edge].sourceVertex]!, local[edges[edge].targetVertex]!) }
        let components = Set(local.values.map { sets.find($0) }).count
        if components > 1 {
            failures.append(BuildFailure(
                code: .disconnectedIdentity, identity: identity.key, wayIDs: wayIDs,
                message: "its ways form \(components) separate pieces that share no vertex: add the missing ways to osm_way_ids, or split it into separate identities"))
            return nil
        }

        var chains: [[Int]] = []
        for twins in [false, true] {
            let group = members.filter { edges[$0].isReverseTwin == twins }
            if group.isEmpty { continue }
            guard let chain = simplePath(group) else {
                failures.append(BuildFailure(
                    code: .branchedIdentity, identity: identity.key, wayIDs: wayIDs,
                    message: "in the \(twins ? "reverse" : "primary") direction its edges are not one simple path (a fork, a merge, a loop, or ways drawn against each other): claim each branch as its own identity or fix the ways' direction"))
                return nil
            }
            chains.append(chain)
        }
        return chains
    }

    /// The edges in travel order if they form exactly one simple directed path.
    private func simplePath(_ group: [Int]) -> [Int]? {
        var outgoing: [Int: Int] = [:]
        var incoming: Set<Int> = []
        for edge in group {
            let source = edges[edge].sourceVertex
            let target = edges[edge].targetVertex
            if outgoing[source] != nil || incoming.contains(target) { return nil }
            outgoing[source] = edge
            incoming.insert(target)
        }
        let heads = group.filter { !incoming.contains(edges[$0].sourceVertex) }
        guard heads.count == 1 else { return nil }
        var chain = [heads[0]]
        var visited: Set<Int> = [edges[heads[0]].sourceVertex]
        while let next = outgoing[edges[chain[chain.count - 1]].targetVertex] {
            if !visited.insert(edges[next].sourceVertex).inserted { return nil }
            chain.append(next)
        }
        return chain.count == group.count ? chain : nil
    }

    /// Official length / vertical / ride time go once over the directed chain,
    /// weighted by each edge's share of the geometry.
    private mutating func allocateOfficialTotals(_ identity: ResolvedIdentity, over chain: [Int]) {
        let lengths = chain.map { edges[$0].geometricLength }
        let verticals = chain.map { edges[$0].geometricVertical }
        let verticalWeights = verticals.reduce(0, +) > 0 ? verticals : lengths
        func assign(_ values: [Double], _ write: (inout EdgeAttributes, Double) -> Void) {
            for (edge, value) in zip(chain, values) { write(&edges[edge].edge.attributes, value) }
        }
        if let trail = identity.trail {
            if let total = trail.lengthM {
                assign(Self.allocate(total, weights: lengths, minimum: EdgeGeometry.minimumLength)) { $0.lengthMeters = $1 }
            }
            if let total = trail.vertM {
                assign(Self.allocate(total, weights: verticalWeights, minimum: 0)) { $0.verticalDrop = $1 }
            }
        }
        if let lift = identity.lift {
            if let total = lift.rideTimeS {
                assign(Self.allocate(total, weights: lengths, minimum: 0.001)) { $0.rideTimeSeconds = $1 }
            } else if let type = lift.liftType {
                // The row's lift type refines the estimate when OSM gave no duration.
                if durationSeconds(ways[identity.ways[0]].tags["aerialway:duration"]) == nil {
                    for edge in chain {
                        edges[edge].edge.attributes.rideTimeSeconds = Quantize.metres(edges[edge].geometricLength / type.estimatedSpeed)
                    }
                }
            }
            if let total = lift.verticalRiseM {
                assign(Self.allocate(total, weights: verticalWeights, minimum: 0)) { $0.verticalDrop = $1 }
            }
        }
    }

    /// `vᵢ = T·wᵢ/Σw` for all but the last edge, which takes the remainder, so
    /// the chain sums to T exactly (up to the quantum).
    static func allocate(_ total: Double, weights: [Double], minimum: Double) -> [Double] {
        let sum = weights.reduce(0, +)
        let effective = sum > 0 ? weights : Array(repeating: 1, count: weights.count)
        let divisor = sum > 0 ? sum : Double(weights.count)
        var values: [Double] = []
        var assigned = 0.0
        for weight in effective.dropLast() {
            let value = max(Quantize.metres(total * weight / divisor), minimum)
            values.append(value)
            assigned += value
        }
        values.append(max(Quantize.metres(total - assigned), minimum))
        return values
    }
}
