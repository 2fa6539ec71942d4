import Foundation

/// A handful of slow-down factors combined the way the time model does:
/// only factors below 1 count, worst first, the i-th (from 0) taken to the
/// power 1/(i+1) — so a second problem hurts less than the first — and the
/// product never drops below 0.25. Kept inline (no allocation per edge).
struct PenaltyFactors {
    private var storage: (Double, Double, Double, Double, Double, Double, Double, Double) = (1, 1, 1, 1, 1, 1, 1, 1)
    private(set) var count = 0

    static let capacity = 8

    /// Adds a factor if it slows (< 1), keeping the list sorted ascending.
    mutating func add(_ factor: Double) {
        guard factor < 1, count < Self.capacity else { return }
        let filled = count
        withUnsafeMutableBytes(of: &storage) { raw in
            let values = raw.bindMemory(to: Double.self)
            var position = filled
            while position > 0 && values[position - 1] > factor {
                values[position] = values[position - 1]
                position -= 1
            }
            values[position] = factor
        }
        count += 1
    }

    func combined() -> Double {
        guard count > 0 else { return 1 }
        let filled = count
        let product = withUnsafeBytes(of: storage) { raw -> Double in
            let values = raw.bindMemory(to: Double.self)
            var product = 1.0
            for index in 0..<filled {
                let value = max(0, values[index])
                switch index {
                case 0: product *= value
                case 1: product *= value.squareRoot()
                case 2: product *= cbrt(value)
                case 3: product *= value.squareRoot().squareRoot()
                default: product *= pow(value, 1 / Double(index + 1))
                }
            }
            return product
        }
        return max(0.25, product)
    }
}
