/// Disjoint sets over 0..<count with path halving and union by size.
struct UnionFind {
    private var parent: [Int32]
    private var size: [Int32]

    init(count: Int) {
        parent = (0..<Int32(count)).map { $0 }
        size = Array(repeating: 1, count: count)
    }

    mutating func find(_ x: Int) -> Int {
        var x = Int32(x)
        while parent[Int(x)] != x {
            parent[Int(x)] = parent[Int(parent[Int(x)])]
            x = parent[Int(x)]
        }
        return Int(x)
    }

    mutating func union(_ a: Int, _ b: Int) {
        var ra = find(a)
        var rb = find(b)
        if ra == rb { return }
        if size[ra] < size[rb] { swap(&ra, &rb) }
        parent[rb] = Int32(ra)
        size[ra] += size[rb]
    }
}
