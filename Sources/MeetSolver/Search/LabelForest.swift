/// The result of one skier's label search: every label made, and per node
/// the (at most eight) labels still standing.
struct LabelForest: Sendable {
    static let capacity = 8

    var labels: [Label] = []
    var counts: [UInt8]
    var evicted: [Bool] = []
    /// `places[node * 8 ..< node * 8 + counts[node]]` hold the node's labels
    /// with their figures beside them: dominance checks, the overflow order
    /// and the joint choice read one node's places contiguously instead of
    /// chasing label indices. Places past a node's count are never read, so
    /// they are left uninitialised.
    private var places: [Place]

    /// One standing label's figures. The first four are the dominance
    /// criteria, side by side at the front.
    struct Place: Sendable {
        /// Milliseconds.
        var time: Int64
        var variance: Double
        var current: Double
        var actions: Int32
        var id: Int32
        /// Seconds, unrounded.
        var exactTime: Double

        @inline(__always)
        init(_ label: Label, id: Int32) {
            time = label.roundedTime
            variance = label.variance
            current = label.current
            actions = label.actions
            self.id = id
            exactTime = label.time
        }

        /// No worse in every criterion than `other`.
        @inline(__always)
        func isNoWorse(than other: Place) -> Bool {
            time <= other.time && variance <= other.variance && current <= other.current && actions <= other.actions
        }

        @inline(__always)
        var overflowKey: OverflowKey {
            OverflowKey(time: time, exactTime: exactTime, variance: variance, current: current, actions: actions, id: id)
        }
    }

    init(nodeCount: Int) {
        let placeCount = nodeCount * Self.capacity
        places = Array(unsafeUninitializedCapacity: placeCount) { _, initialized in initialized = placeCount }
        counts = Array(repeating: 0, count: nodeCount)
        // Searches on resorts keep a handful of labels per node; grow less often.
        labels.reserveCapacity(nodeCount * 8)
        evicted.reserveCapacity(nodeCount * 8)
    }

    /// Empties the forest for a search on a graph of `nodeCount` nodes,
    /// keeping the memory it has: a reused forest starts exactly as a new one.
    mutating func reset(nodeCount: Int) {
        labels.removeAll(keepingCapacity: true)
        evicted.removeAll(keepingCapacity: true)
        if counts.count == nodeCount {
            counts.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            self = LabelForest(nodeCount: nodeCount)
        }
    }

    /// Calls `body` with the place of each label standing at a node, in slot order.
    @inline(__always)
    func forEachPlace(at node: Int32, _ body: (Place) -> Void) {
        let base = Int(node) * Self.capacity
        places.withUnsafeBufferPointer { places in
            for slot in 0..<Int(counts[Int(node)]) { body(places[base + slot]) }
        }
    }

    /// The labels standing at a node, in slot order.
    func labels(at node: Int32) -> [Int32] {
        let base = Int(node) * Self.capacity
        return (0..<Int(counts[Int(node)])).map { places[base + $0].id }
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
        let newID = Int32(labels.count)
        let offered = Place(candidate, id: newID)
        let kept: Int? = places.withUnsafeMutableBufferPointer { places in
            evicted.withUnsafeMutableBufferPointer { evicted in
                for slot in base..<base + count where places[slot].isNoWorse(than: offered) { return nil }
                var kept = 0
                for slot in base..<base + count {
                    let place = places[slot]
                    if offered.isNoWorse(than: place) {
                        evicted[Int(place.id)] = true
                    } else {
                        places[base + kept] = place
                        kept += 1
                    }
                }
                return kept
            }
        }
        guard let kept else { return nil }
        if kept < Self.capacity {
            places[base + kept] = offered
            counts[node] = UInt8(kept + 1)
            labels.append(candidate)
            evicted.append(false)
            return newID
        }
        // Nine labels for eight places: find the one to drop.
        guard let dropped = placeToDrop(base: base, offered, candidate) else { return nil }
        evicted[Int(places[dropped].id)] = true
        places[dropped] = offered
        labels.append(candidate)
        evicted.append(false)
        return newID
    }

    /// The place whose label leaves when `offered` arrives at a full node,
    /// or nil when the candidate itself is the one left out: the fastest of
    /// the nine stays, and of the rest the last in the overflow order goes.
    /// Each label's order key is worked out once here, not per comparison.
    private func placeToDrop(base: Int, _ offered: Place, _ candidate: Label) -> Int? {
        withUnsafeTemporaryAllocation(of: OverflowKey.self, capacity: Self.capacity + 1) { keys in
            places.withUnsafeBufferPointer { places in
                for position in 0..<Self.capacity {
                    keys.initializeElement(at: position, to: places[base + position].overflowKey)
                }
            }
            keys.initializeElement(at: Self.capacity, to: offered.overflowKey)
            return labels.withUnsafeBufferPointer { labels in
                // The candidate is not among the labels yet.
                let label = { (id: Int32) in id == offered.id ? candidate : labels[Int(id)] }
                var fastest = 0
                for position in 1...Self.capacity where keys[position].isFaster(than: keys[fastest], label) { fastest = position }
                var worst = fastest == 0 ? 1 : 0
                for position in worst + 1...Self.capacity where position != fastest && keys[worst].isOrdered(before: keys[position], label) {
                    worst = position
                }
                return worst == Self.capacity ? nil : base + worst
            }
        }
    }
}
