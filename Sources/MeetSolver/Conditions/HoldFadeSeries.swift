/// One weather variable over time under the seed's continuity rule.
///
/// Samples at most an hour apart interpolate linearly. At the ends of the
/// forecast, and inside a longer gap, the nearest sample (the earlier one on
/// a tie) holds for one hour, then fades linearly to the current value over
/// thirty minutes; from then on the current value applies. Inside a gap
/// shorter than three hours the two sides meet in the middle.
enum HoldFadeSeries {
    static let normalGap = 3_600.0
    static let hold = 3_600.0
    static let fadeEnd = 5_400.0

    static func build(samples: [(time: Double, value: Double)], current: Double) -> PiecewiseLinear {
        typealias Point = PiecewiseLinear.Point
        guard let first = samples.first, let last = samples.last else { return .constant(current) }
        /// The value at distance `d` from a sample held then faded.
        func faded(_ value: Double, _ d: Double) -> Double {
            if d <= hold { return value }
            if d < fadeEnd { return value + (current - value) * (d - hold) / (fadeEnd - hold) }
            return current
        }
        var points: [Point] = [
            Point(time: first.time - fadeEnd, value: current),
            Point(time: first.time - hold, value: first.value),
            Point(time: first.time, value: first.value),
        ]
        for index in 1..<samples.count {
            let a = samples[index - 1], b = samples[index]
            let gap = b.time - a.time
            if gap > normalGap {
                let middle = a.time + gap / 2
                if a.time + hold < middle { points.append(Point(time: a.time + hold, value: a.value)) }
                if a.time + fadeEnd < middle { points.append(Point(time: a.time + fadeEnd, value: current)) }
                points.append(Point(time: middle, value: faded(a.value, middle - a.time)))
                points.append(Point(time: middle, value: faded(b.value, b.time - middle)))
                if b.time - fadeEnd > middle { points.append(Point(time: b.time - fadeEnd, value: current)) }
                if b.time - hold > middle { points.append(Point(time: b.time - hold, value: b.value)) }
            }
            points.append(Point(time: b.time, value: b.value))
        }
        points.append(Point(time: last.time + hold, value: last.value))
        points.append(Point(time: last.time + fadeEnd, value: current))
        return PiecewiseLinear(points: points)
    }
}
