import Foundation
import MountainGraph

/// The figures stored for one descent (spec §5.2), from its own fixes.
public struct RunStatistics: Sendable, Equatable, Codable {
    /// Haversine length of the fixes, metres.
    public var distance: Double
    /// Sum of drops, with a 1 m dead band so GPS jitter does not add up.
    public var vertical: Double
    public var duration: Double
    /// Distance over time with pauses (below 1 m/s for 10 s or more) left out.
    public var movingAverageSpeed: Double
    /// Fastest 3-pair rolling window, at most 30 m/s; at least the average.
    public var peakSpeed: Double
    /// Steepest smoothed gradient over at least 25 m of ground, degrees (≤ 60).
    public var maxGrade: Double

    public init(distance: Double, vertical: Double, duration: Double, movingAverageSpeed: Double, peakSpeed: Double, maxGrade: Double) {
        self.distance = distance
        self.vertical = vertical
        self.duration = duration
        self.movingAverageSpeed = movingAverageSpeed
        self.peakSpeed = peakSpeed
        self.maxGrade = maxGrade
    }

    public init(_ points: [TrackPoint]) {
        let n = points.count
        var steps = [Double](repeating: 0, count: max(n - 1, 0))
        for index in 0..<max(n - 1, 0) {
            let a = points[index], b = points[index + 1]
            steps[index] = Geo.distance(a.lat, a.lon, b.lat, b.lon)
        }
        distance = steps.reduce(0, +)
        duration = n > 1 ? points[n - 1].time - points[0].time : 0

        // Moving time: skip stretches slower than 1 m/s that last 10 s or more.
        var movingDistance = 0.0, movingTime = 0.0
        var slowDistance = 0.0, slowTime = 0.0
        for index in 0..<steps.count {
            let dt = points[index + 1].time - points[index].time
            guard dt > 0 else { continue }
            if steps[index] / dt < 1.0 {
                slowDistance += steps[index]
                slowTime += dt
            } else {
                if slowTime < 10 { movingDistance += slowDistance; movingTime += slowTime }
                slowDistance = 0; slowTime = 0
                movingDistance += steps[index]
                movingTime += dt
            }
        }
        if slowTime < 10 { movingDistance += slowDistance; movingTime += slowTime }
        movingAverageSpeed = movingTime > 0 ? movingDistance / movingTime : 0

        var peak = 0.0
        if n >= 4 {
            for index in 0..<(steps.count - 2) {
                var windowDistance = 0.0, windowTime = 0.0, valid = true
                for k in index..<(index + 3) {
                    let dt = points[k + 1].time - points[k].time
                    if dt <= 0 || dt > 30 { valid = false; break }
                    windowDistance += steps[k]
                    windowTime += dt
                }
                if valid { peak = max(peak, windowDistance / windowTime) }
            }
        }
        peakSpeed = max(min(peak, 30), movingAverageSpeed)

        var drop = 0.0
        var reference: Double?
        for point in points {
            guard let z = point.elevation else { continue }
            guard let ref = reference else { reference = z; continue }
            if z < ref - 1 { drop += ref - z; reference = z } else if z > ref + 1 { reference = z }
        }
        vertical = drop

        // Gradient over smoothed elevation and at least 25 m of ground, so noise cannot make cliffs.
        var grade = 0.0
        let elevations = SkiDaySegmenter.filledElevations(points)
        if let elevations, n >= 3 {
            var smoothed = elevations
            for index in 0..<n {
                let a = max(0, index - 2), b = min(n - 1, index + 2)
                smoothed[index] = elevations[a...b].reduce(0, +) / Double(b - a + 1)
            }
            var cumulative = [0.0]
            for step in steps { cumulative.append(cumulative.last! + step) }
            var far = 0
            for index in 0..<n {
                if far < index { far = index }
                while far < n - 1, cumulative[far] - cumulative[index] < 25 { far += 1 }
                let run = cumulative[far] - cumulative[index]
                guard run >= 25 else { break }
                let angle = atan(abs(smoothed[far] - smoothed[index]) / run) * 180 / .pi
                grade = max(grade, min(angle, 60))
            }
        }
        maxGrade = grade
    }
}
