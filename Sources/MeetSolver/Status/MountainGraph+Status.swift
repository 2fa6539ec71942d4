import MountainGraph

extension MountainGraph {
    /// The graph as it is now: every edge open only if it is structurally
    /// open and the status does not close it; live waits on queue-entry lift
    /// edges. Edges the status does not mention keep their structural state.
    public func applying(_ status: MountainStatus) -> MountainGraph {
        let edges = self.edges.map { edge -> GraphEdge in
            guard let entry = status.edges[edge.id] else { return edge }
            var edge = edge
            edge.attributes.isOpen = edge.attributes.isOpen && entry.isOpen
            if edge.kind == .lift && edge.attributes.queueEntry {
                edge.attributes.waitTimeMinutes = entry.waitMinutes
            }
            return edge
        }
        return MountainGraph(resortID: resortID, manifestVersion: manifestVersion, snapshotDate: snapshotDate,
                             graphVersion: graphVersion, nodes: nodes, edges: edges,
                             identities: identities, rendezvousPoints: rendezvousPoints)
    }
}
