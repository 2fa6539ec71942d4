import MountainGraph

/// A starting rendezvous overlay for a resort nobody has reviewed yet: every
/// lift's base and top station (the places skiers already name when they
/// meet), and a lodge at the base where most lifts start. An operator
/// reviews and edits it like any other overlay row before it is built in.
public enum StationRendezvousProposal {
    public static func propose(for graph: MountainGraph) -> [CanonicalRendezvousPoint] {
        var baseOf: [String: String] = [:] // node id → lift name
        var topOf: [String: String] = [:]
        var liftsStartingAt: [String: Int] = [:]
        for identity in graph.identities where identity.kind == .lift {
            guard let chain = identity.chains.first, let first = chain.first, let last = chain.last,
                  let head = graph.edges.first(where: { $0.id == first }), let tail = graph.edges.first(where: { $0.id == last }) else { continue }
            baseOf[head.sourceID] = baseOf[head.sourceID] ?? identity.name
            topOf[tail.targetID] = topOf[tail.targetID] ?? identity.name
            liftsStartingAt[head.sourceID, default: 0] += 1
        }
        // Unclaimed lifts: each way's chain start and end, by chain index.
        var chains: [String: [GraphEdge]] = [:]
        for edge in graph.edges where edge.kind == .lift && edge.attributes.identityKey == nil && !edge.isReverseTwin {
            chains[edge.attributes.sourceWayId, default: []].append(edge)
        }
        for way in chains.keys.sorted() {
            let edges = chains[way]!.sorted { ($0.attributes.chainIndex ?? 0) < ($1.attributes.chainIndex ?? 0) }
            let name = edges[0].attributes.trailName ?? "lift \(way)"
            baseOf[edges[0].sourceID] = baseOf[edges[0].sourceID] ?? name
            topOf[edges[edges.count - 1].targetID] = topOf[edges[edges.count - 1].targetID] ?? name
            liftsStartingAt[edges[0].sourceID, default: 0] += 1
        }
        let hub = liftsStartingAt.max { a, b in a.value != b.value ? a.value < b.value : a.key.utf8.lexicographicallyPrecedes(b.key.utf8) == false }?.key

        var rows: [CanonicalRendezvousPoint] = []
        func anchor(_ nodeID: String) -> Int64? { Int64(nodeID.dropFirst()) }
        for nodeID in Set(baseOf.keys).union(topOf.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let id = anchor(nodeID) else { continue }
            if nodeID == hub, (liftsStartingAt[nodeID] ?? 0) >= 2 {
                rows.append(CanonicalRendezvousPoint(anchorOSMNodeID: id, kind: .lodge, displayName: "Base lodge (\(baseOf[nodeID]!))",
                                                     confidence: 0.9, quality: 0.9))
            } else if let lift = baseOf[nodeID] {
                rows.append(CanonicalRendezvousPoint(anchorOSMNodeID: id, kind: .liftBase, displayName: "\(lift) base",
                                                     confidence: 0.8, quality: 0.7))
            } else if let lift = topOf[nodeID] {
                rows.append(CanonicalRendezvousPoint(anchorOSMNodeID: id, kind: .liftTop, displayName: "\(lift) top",
                                                     confidence: 0.8, quality: 0.6))
            }
        }
        return rows
    }
}
