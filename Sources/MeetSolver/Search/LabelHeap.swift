/// A binary min-heap of label indices, ordered by time, variance, actions,
/// current uncertainty, node, edge and creation order: a total order, so
/// the search visits labels in the same sequence on every run. Time and
/// variance sit in the entries; the rest is read only to break ties.
struct LabelHeap {
    private struct Entry {
        var time: Double
        var variance: Double
        var id: Int32
    }

    private var items: [Entry] = []

    init(capacity: Int = 0) {
        items.reserveCapacity(capacity)
    }

    var isEmpty: Bool { items.isEmpty }

    private static func less(_ a: Entry, _ b: Entry, _ labels: [Label]) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.variance != b.variance { return a.variance < b.variance }
        let x = labels[Int(a.id)], y = labels[Int(b.id)]
        if x.actions != y.actions { return x.actions < y.actions }
        if x.current != y.current { return x.current < y.current }
        if x.node != y.node { return x.node < y.node }
        if x.via != y.via { return x.via < y.via }
        return a.id < b.id
    }

    mutating func push(_ id: Int32, _ labels: [Label]) {
        let label = labels[Int(id)]
        items.append(Entry(time: label.time, variance: label.variance, id: id))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(items[child], items[parent], labels) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop(_ labels: [Label]) -> Int32? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            let count = items.count
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < count && Self.less(items[left], items[smallest], labels) { smallest = left }
                if right < count && Self.less(items[right], items[smallest], labels) { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top.id
    }
}
