import Foundation

/// A smooth mountain landscape: Gaussian peaks on a jittered grid over a
/// valley floor, with gentle ripples. Each point sees only the peaks of its
/// own and neighbouring grid cells, so sampling stays O(1) at any size.
struct SyntheticTerrain {
    struct Peak {
        let x: Double
        let y: Double
        let height: Double
        let spread: Double
    }

    static let cellSize = 4_000.0
    static let valleyFloor = 1_150.0

    let columns: Int
    let rows: Int
    let peaks: [Peak]

    init(peakCount: Int, random: inout SeededGenerator) {
        columns = max(1, Int(Double(peakCount).squareRoot().rounded(.up)))
        rows = (peakCount + columns - 1) / columns
        var peaks: [Peak] = []
        for index in 0..<peakCount {
            let column = index % columns
            let row = index / columns
            peaks.append(Peak(
                x: (Double(column) + 0.5) * Self.cellSize + random.uniform(-600, 600),
                y: (Double(row) + 0.5) * Self.cellSize + random.uniform(-600, 600),
                height: random.uniform(700, 1_500),
                spread: random.uniform(1_150, 1_500)))
        }
        self.peaks = peaks
    }

    /// Ground elevation in metres at local coordinates (x east, y north).
    func elevation(x: Double, y: Double) -> Double {
        let column = Int((x / Self.cellSize).rounded(.down))
        let row = Int((y / Self.cellSize).rounded(.down))
        var height = Self.valleyFloor + 25 * sin(x / 700) * cos(y / 900)
        for dr in -1...1 {
            for dc in -1...1 {
                let c = column + dc
                let r = row + dr
                guard c >= 0, c < columns, r >= 0 else { continue }
                let index = r * columns + c
                guard index < peaks.count else { continue }
                let peak = peaks[index]
                let dx = x - peak.x
                let dy = y - peak.y
                height += peak.height * exp(-(dx * dx + dy * dy) / (2 * peak.spread * peak.spread))
            }
        }
        return height
    }
}
