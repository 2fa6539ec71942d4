import MountainGraph

/// The cleaning every run's fixes go through before any figure is taken from
/// them, the same for every format (docs/activities.md, "How the figures are
/// filtered").
///
/// - Teleports: a fix that implies more than `teleportSpeed` both from the fix
///   before and to the fix after, while those two agree, is a GPS spike and is
///   dropped. A step that still implies more than `teleportSpeed` (a jump the
///   track stays at) is marked unusable, so no distance, speed or grade spans it.
/// - Altitude steps: a change between neighbouring fixes larger than
///   `stepAllowance` plus the horizontal step (steeper than 45° by more than a
///   barometer's or GPS's jitter) is an instrument step, not terrain. For
///   grades the rest of the run is shifted back by it; for vertical only a step
///   up is (a step down on a run is the altimeter catching up: the drop is real).
/// - Smoothing: altitude and position are averaged over ±`altitudeHalfWindow`
///   and ±`positionHalfWindow` seconds, which removes fix-to-fix jitter but
///   keeps the shape of a run.
struct TrackFilter {
    static let teleportSpeed = 40.0
    static let stepAllowance = 8.0
    static let altitudeHalfWindow = 3.0
    static let positionHalfWindow = 2.0
    /// A gap longer than this between fixes is not bridged by speed or grade windows.
    static let longestGap = 10.0

    /// The fixes kept, in time order.
    var points: [TrackPoint]
    /// Horizontal length of step k (fix k to k+1), metres.
    var steps: [Double]
    /// Whether step k is usable: positive time, no teleport, no long gap.
    var usable: [Bool]
    /// Cumulative usable horizontal distance at each fix.
    var cumulative: [Double]
    /// Cumulative count of unusable steps at each fix: a window [i, j] is clean when these are equal.
    var breaks: [Int]
    /// Smoothed, de-stepped altitude at each fix, for grades; nil when the run has no altitude.
    var altitude: [Double]?
    /// Smoothed altitude for vertical: its steps up removed, its steps down kept. On a
    /// run a step down is a lagging altimeter catching up with the skier — the apps count
    /// that drop, and the run's range holds it — while a step up would be counted twice.
    var steppedAltitude: [Double]?
    /// Smoothed positions.
    var lat: [Double]
    var lon: [Double]

    init(_ raw: [TrackPoint]) {
        points = Self.withoutSpikes(raw)
        let n = points.count
        steps = []
        usable = []
        steps.reserveCapacity(max(n - 1, 0))
        for k in 0..<max(n - 1, 0) {
            let a = points[k], b = points[k + 1]
            let length = Geo.distance(a.lat, a.lon, b.lat, b.lon)
            let dt = b.time - a.time
            steps.append(length)
            usable.append(dt > 0 && length / dt <= Self.teleportSpeed)
        }
        cumulative = [0]
        breaks = [0]
        for k in steps.indices {
            cumulative.append(cumulative[k] + (usable[k] ? steps[k] : 0))
            let gap = points[k + 1].time - points[k].time > Self.longestGap
            breaks.append(breaks[k] + (usable[k] && !gap ? 0 : 1))
        }
        lat = Self.smoothed(points.map(\.lat), points, halfWindow: Self.positionHalfWindow)
        lon = Self.smoothed(points.map(\.lon), points, halfWindow: Self.positionHalfWindow)
        if let filled = SkiDaySegmenter.filledElevations(points) {
            var destepped = filled, descending = filled
            var offset = 0.0, rise = 0.0
            for k in 1..<max(n, 1) {
                let change = filled[k] - filled[k - 1]
                if abs(change) > Self.stepAllowance + steps[k - 1] {
                    offset += change
                    if change > 0 { rise += change }
                }
                destepped[k] = filled[k] - offset
                descending[k] = filled[k] - rise
            }
            altitude = Self.smoothed(destepped, points, halfWindow: Self.altitudeHalfWindow)
            steppedAltitude = Self.smoothed(descending, points, halfWindow: Self.altitudeHalfWindow)
        }
    }

    func isClean(_ i: Int, _ j: Int) -> Bool { breaks[i] == breaks[j] }

    /// Drops single fixes far from both neighbours when the neighbours agree.
    static func withoutSpikes(_ raw: [TrackPoint]) -> [TrackPoint] {
        guard raw.count >= 3 else { return raw }
        func speed(_ a: TrackPoint, _ b: TrackPoint) -> Double {
            Geo.distance(a.lat, a.lon, b.lat, b.lon) / max(b.time - a.time, 1e-3)
        }
        var kept = [raw[0]]
        kept.reserveCapacity(raw.count)
        for k in 1..<(raw.count - 1) {
            let before = kept[kept.count - 1], point = raw[k], after = raw[k + 1]
            let spike = speed(before, point) > teleportSpeed && speed(point, after) > teleportSpeed
                && speed(before, after) <= teleportSpeed
            if !spike { kept.append(point) }
        }
        kept.append(raw[raw.count - 1])
        return kept
    }

    /// Centred moving average over ±`halfWindow` seconds.
    static func smoothed(_ values: [Double], _ points: [TrackPoint], halfWindow: Double) -> [Double] {
        let n = values.count
        var result = values
        var low = 0, high = 0
        var sum = 0.0
        for i in 0..<n {
            while high < n, points[high].time <= points[i].time + halfWindow { sum += values[high]; high += 1 }
            while points[low].time < points[i].time - halfWindow { sum -= values[low]; low += 1 }
            result[i] = sum / Double(high - low)
        }
        return result
    }
}
