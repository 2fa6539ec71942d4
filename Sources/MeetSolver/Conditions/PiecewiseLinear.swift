/// A function of time made of straight pieces between points, held flat
/// before the first and after the last. Two points at the same instant make
/// a jump; exactly at a jump the first (earlier-side) value applies.
struct PiecewiseLinear: Sendable, Equatable {
    struct Point: Sendable, Equatable {
        var time: Double
        var value: Double
    }

    /// Sorted by time (not strictly: equal times are jumps).
    let points: [Point]

    init(points: [Point]) {
        precondition(!points.isEmpty, "a piecewise-linear function needs at least one point")
        self.points = points
    }

    static func constant(_ value: Double) -> PiecewiseLinear {
        PiecewiseLinear(points: [Point(time: 0, value: value)])
    }

    /// The index of the first point at or after `time`.
    func lowerBound(_ time: Double) -> Int {
        var low = 0, high = points.count
        while low < high {
            let mid = (low + high) / 2
            if points[mid].time < time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func value(at time: Double) -> Double {
        let index = lowerBound(time)
        if index == 0 { return points[0].value }
        if index == points.count { return points[points.count - 1].value }
        let after = points[index]
        if after.time == time { return after.value }
        let before = points[index - 1]
        let share = (time - before.time) / (after.time - before.time)
        return before.value + (after.value - before.value) * share
    }

    /// This function composed with a piecewise-linear `transform` of its
    /// values with the given knots: exact, since a point is added wherever a
    /// piece crosses a knot.
    func mapped(knots: [Double], _ transform: (Double) -> Double) -> PiecewiseLinear {
        var result: [Point] = [Point(time: points[0].time, value: transform(points[0].value))]
        for index in 1..<points.count {
            let a = points[index - 1], b = points[index]
            if a.time < b.time && a.value != b.value {
                let low = min(a.value, b.value), high = max(a.value, b.value)
                let crossings = knots.filter { $0 > low && $0 < high }
                let ordered = a.value < b.value ? crossings : crossings.reversed()
                for knot in ordered {
                    let time = a.time + (b.time - a.time) * (knot - a.value) / (b.value - a.value)
                    result.append(Point(time: time, value: transform(knot)))
                }
            }
            result.append(Point(time: b.time, value: transform(b.value)))
        }
        return PiecewiseLinear(points: result)
    }

    /// `sup over s ≤ time of value(s) − decay·(time − s)`: the smallest
    /// function above this one that never falls faster than `decay` per
    /// second. On a straight piece the supremum sits at an end, so only the
    /// points within reach of the decay need to be looked at.
    func fallLimited(at time: Double, decay: Double, range: Double) -> Double {
        var best = value(at: time)
        guard decay > 0, range > 0 else { return best }
        let reach = range / decay
        var index = lowerBound(time)
        while index < points.count && points[index].time == time { index += 1 }
        // Every point at or before `time`, newest first.
        while index > 0 {
            index -= 1
            let point = points[index]
            if time - point.time > reach { break }
            best = max(best, point.value - decay * (time - point.time))
        }
        return best
    }

    var minimum: Double { points.map(\.value).min()! }
    var maximum: Double { points.map(\.value).max()! }
}
