import Foundation
import MountainGraph

/// The figures stored for one descent (spec §5.2), from its own fixes after
/// `TrackFilter` has cleaned them. The rules are the same for every format.
public struct RunStatistics: Sendable, Equatable, Codable {
    /// Haversine length of the usable steps, metres.
    public var distance: Double
    /// Drops of the filtered altitude counted with a `verticalHysteresis` dead band,
    /// and never more than the run's altitude range.
    public var vertical: Double
    /// Highest minus lowest recorded altitude of the run, metres.
    public var altitudeRange: Double
    public var duration: Double
    /// Distance over time with pauses (below 1 m/s for 10 s or more) left out.
    public var movingAverageSpeed: Double
    /// Peak of the filtered speed series, m/s (see `speedSeries`); no clamp.
    public var peakSpeed: Double
    /// Unix time of the fix the peak speed was measured at; nil when the run is too short for a window.
    public var peakSpeedAt: Double?
    /// Steepest slope of the filtered altitude over at least `gradeWindow` metres of ground, degrees.
    public var maxGrade: Double

    /// The dead band of the vertical count, metres: smaller rises and falls are noise.
    public static let verticalHysteresis = 2.0
    /// The shortest time a position-derived speed is measured over, seconds.
    public static let speedTimeBase = 3.0
    /// The shortest ground distance a grade is measured over, metres.
    public static let gradeWindow = 60.0
    /// The shortest time a grade is measured over, seconds: the altitude's smoothing span (±3 s).
    public static let gradeTimeBase = 2 * TrackFilter.altitudeHalfWindow

    public init(distance: Double, vertical: Double, altitudeRange: Double? = nil, duration: Double, movingAverageSpeed: Double,
                peakSpeed: Double, peakSpeedAt: Double? = nil, maxGrade: Double) {
        self.distance = distance
        self.vertical = vertical
        self.altitudeRange = altitudeRange ?? vertical
        self.duration = duration
        self.movingAverageSpeed = movingAverageSpeed
        self.peakSpeed = peakSpeed
        self.peakSpeedAt = peakSpeedAt
        self.maxGrade = maxGrade
    }

    public init(_ raw: [TrackPoint]) {
        let track = TrackFilter(raw)
        let points = track.points
        let n = points.count
        distance = track.cumulative.last ?? 0
        duration = n > 1 ? points[n - 1].time - points[0].time : 0
        movingAverageSpeed = Self.movingAverage(track)

        let recorded = raw.compactMap(\.elevation)
        altitudeRange = (recorded.max() ?? 0) - (recorded.min() ?? 0)
        vertical = 0
        maxGrade = 0
        if let altitude = track.altitude, let stepped = track.steppedAltitude, let first = stepped.first {
            var drop = 0.0, reference = first
            for z in stepped {
                if z < reference - Self.verticalHysteresis { drop += reference - z; reference = z }
                else if z > reference + Self.verticalHysteresis { reference = z }
            }
            let filteredRange = (stepped.max() ?? 0) - (stepped.min() ?? 0)
            vertical = min(drop, filteredRange, altitudeRange)
            maxGrade = Self.steepest(track, altitude)
        }

        let series = Self.speedSeries(track)
        var peak = 0.0, at: Double?
        for sample in series where sample.speed > peak { peak = sample.speed; at = sample.time }
        peakSpeed = max(peak, movingAverageSpeed)
        peakSpeedAt = at
    }

    /// The speed series the peak is taken from. Where the device measured speed
    /// (Doppler, as Slopes, Ski Tracks and most GPX exports carry), its values,
    /// each the median of three neighbours so a single bad reading cannot be the
    /// peak; elsewhere, the smoothed positions' displacement over at least
    /// `speedTimeBase` seconds, the median of five neighbouring windows.
    static func speedSeries(_ track: TrackFilter) -> [(time: Double, speed: Double)] {
        let points = track.points
        let n = points.count
        let measured = points.filter { $0.speed != nil }.count
        if n >= 3, measured * 2 >= n {
            var series: [(time: Double, speed: Double)] = []
            for k in 1..<(n - 1) {
                guard let a = points[k - 1].speed, let b = points[k].speed, let c = points[k + 1].speed,
                      track.isClean(k - 1, k + 1) else { continue }
                series.append((points[k].time, Self.median([a, b, c])))
            }
            return series
        }
        var windows: [(time: Double, speed: Double)?] = []
        var j = 0
        for i in 0..<n {
            if j < i { j = i }
            while j < n - 1, points[j].time - points[i].time < Self.speedTimeBase { j += 1 }
            let dt = points[j].time - points[i].time
            guard dt >= Self.speedTimeBase else { break }
            guard track.isClean(i, j), dt <= 3 * Self.speedTimeBase else { windows.append(nil); continue }
            windows.append((points[i].time, Geo.distance(track.lat[i], track.lon[i], track.lat[j], track.lon[j]) / dt))
        }
        var series: [(time: Double, speed: Double)] = []
        if windows.count >= 5 {
            for k in 2..<(windows.count - 2) {
                let group = windows[(k - 2)...(k + 2)].compactMap { $0 }
                guard group.count == 5, let centre = windows[k] else { continue }
                series.append((centre.time, Self.median(group.map(\.speed))))
            }
        }
        return series
    }

    /// Steepest clean window of at least `gradeWindow` metres of ground.
    private static func steepest(_ track: TrackFilter, _ altitude: [Double]) -> Double {
        let n = altitude.count, points = track.points
        var grade = 0.0
        var far = 0
        for i in 0..<n {
            if far < i { far = i }
            // At least `gradeWindow` of ground and the altitude's smoothing span of time, so the two
            // ends are independent readings: a shorter window measures the altimeter's noise.
            while far < n - 1, track.cumulative[far] - track.cumulative[i] < Self.gradeWindow
                    || points[far].time - points[i].time < Self.gradeTimeBase { far += 1 }
            let ground = track.cumulative[far] - track.cumulative[i]
            guard ground >= Self.gradeWindow, points[far].time - points[i].time >= Self.gradeTimeBase else { break }
            guard track.isClean(i, far) else { continue }
            grade = max(grade, atan(abs(altitude[far] - altitude[i]) / ground) * 180 / .pi)
        }
        return grade
    }

    /// Moving time: stretches slower than 1 m/s that last 10 s or more are pauses.
    private static func movingAverage(_ track: TrackFilter) -> Double {
        let points = track.points
        var movingDistance = 0.0, movingTime = 0.0
        var slowDistance = 0.0, slowTime = 0.0
        for k in track.steps.indices where track.usable[k] {
            let dt = points[k + 1].time - points[k].time
            if track.steps[k] / dt < 1.0 {
                slowDistance += track.steps[k]
                slowTime += dt
            } else {
                if slowTime < 10 { movingDistance += slowDistance; movingTime += slowTime }
                slowDistance = 0; slowTime = 0
                movingDistance += track.steps[k]
                movingTime += dt
            }
        }
        if slowTime < 10 { movingDistance += slowDistance; movingTime += slowTime }
        return movingTime > 0 ? movingDistance / movingTime : 0
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
