/// The memory one label search works in: the forest it fills, its heap and
/// its cost memo. On a large resort these come to megabytes; kept between
/// solves (see `SearchWorkspacePool`), a search reuses pages already
/// mapped instead of allocating and faulting in fresh ones each time.
struct SearchWorkspace: Sendable {
    var forest: LabelForest
    var heap: LabelHeap
    var memo: EdgeCostMemo

    init(nodeCount: Int, edgeCount: Int) {
        forest = LabelForest(nodeCount: nodeCount)
        heap = LabelHeap(capacity: Self.heapCapacity(nodeCount: nodeCount))
        memo = EdgeCostMemo(edgeCount: edgeCount)
    }

    /// Ready for a search on a graph of this size: as if newly made.
    mutating func reset(nodeCount: Int, edgeCount: Int) {
        forest.reset(nodeCount: nodeCount)
        heap.reset(capacity: Self.heapCapacity(nodeCount: nodeCount))
        memo.reset(edgeCount: edgeCount)
    }

    /// Searches on resorts queue a few labels per node at most.
    static func heapCapacity(nodeCount: Int) -> Int { nodeCount * 4 }
}
