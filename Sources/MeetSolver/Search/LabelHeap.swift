/// A binary min-heap of label indices, ordered by time, variance, actions,
/// current uncertainty, node, edge and creation order: a total order, so
/// the search visits labels in the same sequence on every run.
struct LabelHeap {
    private var items: [Int32] = []

    var isEmpty: Bool { items.isEmpty }

    static func less(_ a: Int32, _ b: Int32, _ labels: [Label]) -> Bool {
        let x = labels[Int(a)], y = labels[Int(b)]
        if x.time != y.time { return x.time < y.time }
        let xv = x.variance, yv = y.variance
        if xv != yv { return xv < yv }
        if x.actions != y.actions { return x.actions < y.actions }
        if x.current != y.current { return x.current < y.current }
        if x.node != y.node { return x.node < y.node }
        if x.via != y.via { return x.via < y.via }
        return a < b
    }

    mutating func push(_ id: Int32, _ labels: [Label]) {
        items.append(id)
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
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < items.count && Self.less(items[left], items[smallest], labels) { smallest = left }
                if right < items.count && Self.less(items[right], items[smallest], labels) { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
