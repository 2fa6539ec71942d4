import MountainGraph

/// A graph compiled for search: nodes and edges by index (in id order, so
/// index order is id order), outgoing edges in compressed rows, the
/// rendezvous catalog resolved to nodes.
final class RoutingGraph: Sendable {
    let graph: MountainGraph
    let fingerprint: String
    let nodeIDs: [String]
    let nodeCoordinates: [Coordinate]
    let nodeElevations: [Double]
    let nodeKinds: [NodeKind]
    let edgeIDs: [String]
    let edges: [RoutingEdge]
    /// The claiming identity of each edge (`lift:<name>`), for lift hours and waits.
    let identityKeys: [String?]
    /// Outgoing edges of node n: `outgoing[outStart[n] ..< outStart[n + 1]]`, in edge id order.
    let outStart: [Int32]
    let outgoing: [Int32]
    /// `outgoing` with what the search reads of each edge, in the same rows.
    let outEdges: [OutEdge]
    let nodeIndex: [String: Int32]
    let edgeIndex: [String: Int32]
    /// Catalog entries whose node exists, in id order.
    let rendezvous: [(point: RendezvousPoint, node: Int32)]
    /// The lowest lift edge (by id) touching each node, or -1.
    let lowestLiftEdge: [Int32]
    let projection: EdgeProjectionIndex
    /// Whether a node has an outgoing run with an aspect: only then does the sun matter leaving it.
    let sunMatters: [Bool]

    init(_ graph: MountainGraph) {
        self.graph = graph
        fingerprint = graph.fingerprint
        nodeIDs = graph.nodes.map(\.id)
        nodeCoordinates = graph.nodes.map(\.coordinate)
        nodeElevations = graph.nodes.map(\.elevation)
        nodeKinds = graph.nodes.map(\.kind)
        var nodeIndex = [String: Int32](minimumCapacity: graph.nodes.count)
        for (index, node) in graph.nodes.enumerated() { nodeIndex[node.id] = Int32(index) }
        self.nodeIndex = nodeIndex

        var actionKeys: [String: Int32] = [:]
        var edges: [RoutingEdge] = []
        var edgeIDs: [String] = []
        var edgeIndex = [String: Int32](minimumCapacity: graph.edges.count)
        var lowestLift = Array(repeating: Int32(-1), count: graph.nodes.count)
        for edge in graph.edges {
            guard let source = nodeIndex[edge.sourceID], let target = nodeIndex[edge.targetID] else { continue }
            let name = RoutingEdge.actionName(edge)
            let key: Int32
            if let existing = actionKeys[name] { key = existing } else { key = Int32(actionKeys.count); actionKeys[name] = key }
            let index = Int32(edges.count)
            edgeIndex[edge.id] = index
            edgeIDs.append(edge.id)
            edges.append(RoutingEdge(edge, source: source, target: target, actionKey: key))
            if edge.kind == .lift {
                for node in [source, target] where lowestLift[Int(node)] < 0 { lowestLift[Int(node)] = index }
            }
        }
        self.edges = edges
        self.edgeIDs = edgeIDs
        identityKeys = graph.edges.filter { edgeIndex[$0.id] != nil }.map(\.attributes.identityKey)
        self.edgeIndex = edgeIndex
        self.lowestLiftEdge = lowestLift

        var counts = Array(repeating: Int32(0), count: graph.nodes.count + 1)
        for edge in edges { counts[Int(edge.source) + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var fill = counts
        var outgoing = Array(repeating: Int32(0), count: edges.count)
        for (index, edge) in edges.enumerated() {
            outgoing[Int(fill[Int(edge.source)])] = Int32(index)
            fill[Int(edge.source)] += 1
        }
        outStart = counts
        self.outgoing = outgoing
        outEdges = outgoing.map { index in
            let target = Int(edges[Int(index)].target)
            return OutEdge(edges[Int(index)], index: index, targetLeadsOn: counts[target] < counts[target + 1])
        }
        var sunMatters = Array(repeating: false, count: graph.nodes.count)
        for edge in edges where edge.kind == .run && edge.aspect != nil { sunMatters[Int(edge.source)] = true }
        self.sunMatters = sunMatters
        rendezvous = graph.rendezvousPoints.compactMap { point in nodeIndex[point.nodeId].map { (point, $0) } }
        projection = EdgeProjectionIndex(graph: graph, edgeIndex: edgeIndex)
    }

    var nodeCount: Int { nodeIDs.count }
    var edgeCount: Int { edges.count }
}
