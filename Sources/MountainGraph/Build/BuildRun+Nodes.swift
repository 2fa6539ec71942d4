extension BuildRun {
    /// Every edge end becomes a node `n<vertex id>` at the vertex's exact
    /// coordinates, with its kind by priority: lift base/top, mid-station,
    /// junction (≥ 3 incident edges), trail head (only outgoing), trail end.
    mutating func makeNodes() {
        var incoming: [Int: Int] = [:]
        var outgoing: [Int: Int] = [:]
        var liftBases: Set<Int> = []
        var liftTops: Set<Int> = []
        var liftEnds: Set<Int> = []
        for edge in edges {
            outgoing[edge.sourceVertex, default: 0] += 1
            incoming[edge.targetVertex, default: 0] += 1
            if edge.edge.kind == .lift {
                liftEnds.insert(edge.sourceVertex)
                liftEnds.insert(edge.targetVertex)
            }
        }
        for (index, way) in ways.enumerated() where way.kind == .lift {
            let primary = edgesOfWay[index].filter { !edges[$0].isReverseTwin }
            guard let first = primary.first, let last = primary.last else { continue }
            liftBases.insert(edges[first].sourceVertex)
            liftTops.insert(edges[last].targetVertex)
        }
        let nodeVertices = Set(incoming.keys).union(outgoing.keys).sorted()
        nodes.reserveCapacity(nodeVertices.count)
        for vertex in nodeVertices {
            let osmID = vertices.ids[vertex]
            let kind: NodeKind
            let degree = (incoming[vertex] ?? 0) + (outgoing[vertex] ?? 0)
            if liftBases.contains(vertex) {
                kind = .liftBase
            } else if liftTops.contains(vertex) {
                kind = .liftTop
            } else if liftEnds.contains(vertex), osm.nodes[osmID]?.tags["aerialway"] == "station" {
                kind = .midStation
            } else if degree >= 3 {
                kind = .junction
            } else if incoming[vertex] == nil {
                kind = .trailHead
            } else {
                kind = .trailEnd
            }
            let coordinate = vertices.coordinates[vertex]
            nodes.append(GraphNode(id: "n\(osmID)", lat: coordinate.lat, lon: coordinate.lon,
                                   elevation: vertices.elevation[vertex], kind: kind))
        }
    }

    /// Resolves the manifest's rendezvous overlay against the built nodes.
    mutating func makeRendezvousPoints() {
        var seen: Set<Int64> = []
        for row in manifest?.rendezvousPoints ?? [] {
            guard seen.insert(row.anchorOSMNodeID).inserted else {
                failures.append(BuildFailure(code: .manifestUnreadable,
                                             message: "rendezvous anchor \(row.anchorOSMNodeID) is listed twice: keep one row per anchor"))
                continue
            }
            guard row.confidence.isFinite, (0...1).contains(row.confidence),
                  row.quality.isFinite, (0...1).contains(row.quality) else {
                failures.append(BuildFailure(code: .manifestUnreadable,
                                             message: "rendezvous '\(row.displayName)' at \(row.anchorOSMNodeID): confidence and quality must be within 0…1"))
                continue
            }
            guard vertices.index[row.anchorOSMNodeID] != nil else {
                failures.append(BuildFailure(code: .rendezvousAnchorUnresolved,
                                             message: "rendezvous '\(row.displayName)' is anchored on vertex \(row.anchorOSMNodeID), which no routable way uses: anchor it on a vertex of a run, lift or connector"))
                continue
            }
            rendezvousPoints.append(RendezvousPoint(
                id: "rp\(row.anchorOSMNodeID)", nodeId: "n\(row.anchorOSMNodeID)", kind: row.kind,
                displayName: row.displayName, confidence: row.confidence, quality: row.quality))
        }
    }
}
