/// A four-ary min-heap of label indices, ordered by time, variance, actions,
/// current uncertainty, node, edge and creation order: a total order, so
/// the search visits labels in the same sequence on every run. Only the
/// time sits in the entries (times rarely tie); the rest is read from the
/// labels to break ties. Four children per entry: half the depth of a
/// binary heap, and the children share a cache line.
struct LabelHeap: Sendable {
    private struct Entry: Sendable {
        var time: Double
        var id: Int32
    }

    private var items: [Entry] = []

    init(capacity: Int = 0) {
        items.reserveCapacity(capacity)
    }

    var isEmpty: Bool { items.isEmpty }

    /// Empties the heap, keeping its memory for the next search.
    mutating func reset(capacity: Int) {
        items.removeAll(keepingCapacity: true)
        items.reserveCapacity(capacity)
    }

    @inline(__always)
    private static func less(_ a: Entry, _ b: Entry, _ labels: UnsafeBufferPointer<Label>) -> Bool {
        if a.time != b.time { return a.time < b.time }
        let x = labels[Int(a.id)], y = labels[Int(b.id)]
        if x.variance != y.variance { return x.variance < y.variance }
        if x.actions != y.actions { return x.actions < y.actions }
        if x.current != y.current { return x.current < y.current }
        if x.node != y.node { return x.node < y.node }
        if x.via != y.via { return x.via < y.via }
        return a.id < b.id
    }

    mutating func push(_ id: Int32, _ labels: [Label]) {
        let entry = Entry(time: labels[Int(id)].time, id: id)
        items.append(entry)
        labels.withUnsafeBufferPointer { labels in
            items.withUnsafeMutableBufferPointer { items in
                var child = items.count - 1
                while child > 0 {
                    let parent = (child - 1) / 4
                    guard Self.less(entry, items[parent], labels) else { break }
                    items[child] = items[parent]
                    child = parent
                }
                items[child] = entry
            }
        }
    }

    mutating func pop(_ labels: [Label]) -> Int32? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top.id }
        labels.withUnsafeBufferPointer { labels in
            items.withUnsafeMutableBufferPointer { items in
                let count = items.count
                var parent = 0
                while true {
                    let first = 4 * parent + 1
                    guard first < count else { break }
                    var smallest = first
                    var smallestEntry = items[first]
                    for child in first + 1..<min(first + 4, count) {
                        let entry = items[child]
                        if entry.time == smallestEntry.time {
                            // Equal times are rare: the full order decides.
                            if Self.less(entry, smallestEntry, labels) { (smallest, smallestEntry) = (child, entry) }
                        } else {
                            // Which child is least is a coin toss: selected, not branched on.
                            let earlier = entry.time < smallestEntry.time
                            smallest = earlier ? child : smallest
                            smallestEntry = earlier ? entry : smallestEntry
                        }
                    }
                    guard Self.less(smallestEntry, last, labels) else { break }
                    items[parent] = smallestEntry
                    parent = smallest
                }
                items[parent] = last
            }
        }
        return top.id
    }
}
