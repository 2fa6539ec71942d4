/// The shape of an n x n board (spec §3.2): positions are `row * n + col`.
public struct BoardGeometry: Sendable, Hashable {
    public let side: Int

    public init(side: Int) { self.side = side }

    public var squareCount: Int { side * side }

    /// Revealed when a board starts: the middle cell, or the 2 x 2 middle block of an even board.
    public var centre: [Int] {
        let n = side
        if n % 2 == 1 { return [((n - 1) / 2) * n + (n - 1) / 2] }
        return [(n / 2 - 1) * n + n / 2 - 1, (n / 2 - 1) * n + n / 2, (n / 2) * n + n / 2 - 1, (n / 2) * n + n / 2]
    }

    /// The up, down, left and right cells that exist.
    public func neighbours(of position: Int) -> [Int] {
        let n = side
        var cells: [Int] = []
        if position / n > 0 { cells.append(position - n) }
        if position % n > 0 { cells.append(position - 1) }
        if position % n < n - 1 { cells.append(position + 1) }
        if position / n < n - 1 { cells.append(position + n) }
        return cells
    }
}

extension BoardGeometry {
    /// Freebies per board by side (spec §3.1): they complete a square without a moment and never refill.
    public var freebies: Int {
        switch side {
        case 7: 1
        case 8: 2
        case 9: 4
        case 10: 6
        default: 0
        }
    }
}
