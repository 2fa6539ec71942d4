/// The graph's edges and the lift queues, read in place through pointers
/// taken once per search: copying an edge moves all 176 bytes of it (a
/// memmove per cost) when a cost reads a few fields, and taking the
/// pointers per cost retains and releases the arrays every time.
struct EdgeTables {
    let edges: UnsafeBufferPointer<RoutingEdge>
    let queues: UnsafeBufferPointer<LiftQueue?>
}

extension TraversalContext {
    /// Calls `body` with this context's edge tables, valid only inside it.
    @inline(__always)
    func withEdgeTables<Result>(_ body: (EdgeTables) -> Result) -> Result {
        environment.graph.edges.withUnsafeBufferPointer { edges in
            environment.queues.withUnsafeBufferPointer { queues in body(EdgeTables(edges: edges, queues: queues)) }
        }
    }
}
