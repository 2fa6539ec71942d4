/// The result of one skier's label search: every label made, and per node
/// the (at most eight) labels still standing.
struct LabelForest {
    static let capacity = 8

    var labels: [Label] = []
    /// `slots[node * 8 ..< node * 8 + counts[node]]` are the node's labels.
    var slots: [Int32]
    /// Beside each slot, the four criteria of its label: dominance checks
    /// read these contiguously instead of chasing label indices.
    private var keys: [Criteria]
    var counts: [UInt8]
    var evicted: [Bool] = []

    private struct Criteria {
        var time: Int64
        var variance: Double
        var current: Double
        var actions: Int32

        static let empty = Criteria(time: 0, variance: 0, current: 0, actions: 0)

        init(time: Int64, variance: Double, current: Double, actions: Int32) {
            self.time = time
            self.variance = variance
            self.current = current
            self.actions = actions
        }

        init(_ label: Label) {
            time = label.roundedTime
            variance = label.variance
            current = label.current
            actions = label.actions
        }

        @inline(__always)
        func isNoWorse(than other: Criteria) -> Bool {
            time <= other.time && variance <= other.variance && current <= other.current && actions <= other.actions
        }
    }

    init(nodeCount: Int) {
        slots = Array(repeating: -1, count: nodeCount * Self.capacity)
        keys = Array(repeating: .empty, count: nodeCount * Self.capacity)
        counts = Array(repeating: 0, count: nodeCount)
        // Searches on resorts keep a handful of labels per node; grow less often.
        labels.reserveCapacity(nodeCount * 8)
        evicted.reserveCapacity(nodeCount * 8)
    }

    /// Calls `body` with each label standing at a node, in slot order, without allocating.
    @inline(__always)
    func forEachLabel(at node: Int32, _ body: (Int32) -> Void) {
        let base = Int(node) * Self.capacity
        for slot in 0..<Int(counts[Int(node)]) { body(slots[base + slot]) }
    }

    /// The labels standing at a node, in slot order.
    func labels(at node: Int32) -> [Int32] {
        let base = Int(node) * Self.capacity
        return (0..<Int(counts[Int(node)])).map { slots[base + $0] }
    }

    /// The edges from the start to a label, in travel order (a directed start's edge first).
    func edgePath(to label: Int32) -> [Int32] {
        var edges: [Int32] = []
        var cursor = label
        while cursor >= 0 {
            let l = labels[Int(cursor)]
            if l.via >= 0 { edges.append(l.via) }
            cursor = l.predecessor
        }
        return edges.reversed()
    }

    /// Offers `candidate` to its node's set. Returns its new index when kept.
    /// A label no worse than it already there wins (ties keep the old one);
    /// labels it beats leave; on overflow the fastest always stays and the
    /// rest are kept by cautious time, actions, current uncertainty, time,
    /// edge and predecessor.
    mutating func offer(_ candidate: Label) -> Int32? {
        let node = Int(candidate.node)
        let base = node * Self.capacity
        let count = Int(counts[node])
        let criteria = Criteria(candidate)
        for slot in 0..<count where keys[base + slot].isNoWorse(than: criteria) {
            return nil
        }
        var kept = 0
        for slot in 0..<count {
            let id = slots[base + slot]
            if criteria.isNoWorse(than: keys[base + slot]) {
                evicted[Int(id)] = true
            } else {
                slots[base + kept] = id
                keys[base + kept] = keys[base + slot]
                kept += 1
            }
        }
        let newID = Int32(labels.count)
        if kept < Self.capacity {
            slots[base + kept] = newID
            keys[base + kept] = criteria
            counts[node] = UInt8(kept + 1)
            labels.append(candidate)
            evicted.append(false)
            return newID
        }
        // Nine labels for eight places: find the one to drop.
        var fastest = -1 // position among 0...8, 8 = candidate
        func label(_ position: Int) -> Label { position == Self.capacity ? candidate : labels[Int(slots[base + position])] }
        func id(_ position: Int) -> Int32 { position == Self.capacity ? newID : slots[base + position] }
        for position in 0...Self.capacity {
            if fastest < 0 || Self.fasterFirst(label(position), id(position), label(fastest), id(fastest)) { fastest = position }
        }
        var worst = -1
        for position in 0...Self.capacity where position != fastest {
            if worst < 0 || Self.orderedBefore(label(worst), id(worst), label(position), id(position)) { worst = position }
        }
        if worst == Self.capacity { return nil }
        evicted[Int(slots[base + worst])] = true
        slots[base + worst] = newID
        keys[base + worst] = criteria
        labels.append(candidate)
        evicted.append(false)
        return newID
    }

    /// The reserved fastest label: least time, then the overflow order.
    static func fasterFirst(_ a: Label, _ aID: Int32, _ b: Label, _ bID: Int32) -> Bool {
        if a.roundedTime != b.roundedTime { return a.roundedTime < b.roundedTime }
        return orderedBefore(a, aID, b, bID)
    }

    /// The overflow order: cautious time, actions, current uncertainty, time, edge, predecessor.
    static func orderedBefore(_ a: Label, _ aID: Int32, _ b: Label, _ bID: Int32) -> Bool {
        let ac = Int64((a.cautiousTime * 1000).rounded()), bc = Int64((b.cautiousTime * 1000).rounded())
        if ac != bc { return ac < bc }
        if a.actions != b.actions { return a.actions < b.actions }
        if a.current != b.current { return a.current < b.current }
        if a.roundedTime != b.roundedTime { return a.roundedTime < b.roundedTime }
        if a.via != b.via { return a.via < b.via }
        if a.predecessor != b.predecessor { return a.predecessor < b.predecessor }
        return aID < bID
    }
}
