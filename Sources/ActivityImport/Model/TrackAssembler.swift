import Foundation
import MountainGraph

/// Collects fixes as a parser reads them and applies the checks every format
/// shares, so a file is either accepted whole or refused with the first
/// problem and where it is.
///
/// - positions off the Earth are refused; the 0,0 "no fix yet" sentinel is dropped;
/// - fixes must carry a time (a track with more than 5 % untimed fixes is refused); exact repeats of the previous fix's time are dropped,
///   and time must never go backwards;
/// - times must fall between 1990 and a day after `now`, and a recording may span 48 h at most;
/// - a device-measured speed above 120 m/s (432 km/h) is refused;
/// - a lone fix that jumps away and back faster than 120 m/s is a GPS glitch and dropped.
struct TrackAssembler {
    static let earliestPlausibleTime = 631_152_000.0  // 1990-01-01
    static let longestRecording = 48 * 3600.0
    static let fastestPlausibleSpeed = 120.0

    let file: String
    let now: Double
    /// Turns a parser's raw position (byte offset, line…) into a `SourcePosition`.
    let locate: (Int) -> SourcePosition

    private(set) var segments: [[TrackPoint]] = []
    private var current: [TrackPoint] = []
    private var lastTime: Double?
    private var firstTime: Double?
    private(set) var dropped = 0
    private(set) var untimed = 0
    private var firstUntimedPosition: Int?

    init(file: String, now: Double = Date().timeIntervalSince1970, locate: @escaping (Int) -> SourcePosition) {
        self.file = file
        self.now = now
        self.locate = locate
    }

    mutating func startSegment() {
        if !current.isEmpty { segments.append(current) }
        current = []
    }

    /// Adds one fix read at raw position `at`. `time` nil means the source had none.
    mutating func add(time: Double?, lat: Double, lon: Double, elevation: Double?, speed: Double?,
                      accuracy: Double? = nil, heartRate: Double? = nil, at position: Int) throws(ActivityImportError) {
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
            throw ActivityImportError(file: file, position: locate(position), .absurdCoordinate(lat: lat, lon: lon))
        }
        if abs(lat) <= 0.01 && abs(lon) <= 0.01 { dropped += 1; return }
        guard let time else {
            untimed += 1
            if firstUntimedPosition == nil { firstUntimedPosition = position }
            return
        }
        guard time.isFinite, time >= Self.earliestPlausibleTime, time <= now + 86_400 else {
            throw ActivityImportError(file: file, position: locate(position), .implausibleTime(time))
        }
        if let speed, speed.isFinite, speed > Self.fastestPlausibleSpeed {
            throw ActivityImportError(file: file, position: locate(position), .absurdSpeed(metresPerSecond: speed))
        }
        if let lastTime {
            if time == lastTime { dropped += 1; return }
            if time < lastTime {
                throw ActivityImportError(file: file, position: locate(position), .nonMonotonicTime(previous: lastTime, next: time))
            }
        }
        if let firstTime, time - firstTime > Self.longestRecording {
            throw ActivityImportError(file: file, position: locate(position), .implausibleDuration(seconds: time - firstTime))
        }
        if firstTime == nil { firstTime = time }
        lastTime = time
        let cleanSpeed = speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let cleanElevation = elevation.flatMap { $0.isFinite && $0 > -500 && $0 < 9_000 ? $0 : nil }
        let cleanAccuracy = accuracy.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        current.append(TrackPoint(time: time, lat: lat, lon: lon, elevation: cleanElevation, speed: cleanSpeed,
                                  horizontalAccuracy: cleanAccuracy, heartRate: heartRate))
    }

    /// The accepted segments, or the reason there are none.
    mutating func finish() throws(ActivityImportError) -> (segments: [[TrackPoint]], dropped: Int) {
        startSegment()
        let timed = segments.reduce(0) { $0 + $1.count }
        // A few untimed fixes are dropped; a track that is mostly untimed cannot be
        // imported without inventing times, so it is refused rather than half-imported.
        if untimed > 0, segments.isEmpty || untimed * 20 > timed + untimed {
            throw ActivityImportError(file: file, position: firstUntimedPosition.map(locate), .missingTimestamps)
        }
        if segments.isEmpty {
            if untimed > 0 {
                throw ActivityImportError(file: file, position: firstUntimedPosition.map(locate), .missingTimestamps)
            }
            throw ActivityImportError(file: file, .noTrackPoints)
        }
        let cleaned = segments.map(Self.removingGlitches)
        let glitches = zip(segments, cleaned).reduce(0) { $0 + $1.0.count - $1.1.count }
        return (cleaned.filter { !$0.isEmpty }, dropped + untimed + glitches)
    }

    /// Drops single fixes that leap away and straight back faster than any skier.
    static func removingGlitches(_ points: [TrackPoint]) -> [TrackPoint] {
        guard points.count >= 3 else { return points }
        var kept: [TrackPoint] = [points[0]]
        kept.reserveCapacity(points.count)
        for index in 1..<(points.count - 1) {
            let previous = kept[kept.count - 1]
            let point = points[index]
            let next = points[index + 1]
            let inbound = Geo.distance(previous.lat, previous.lon, point.lat, point.lon) / max(point.time - previous.time, 0.5)
            let outbound = Geo.distance(point.lat, point.lon, next.lat, next.lon) / max(next.time - point.time, 0.5)
            if inbound > fastestPlausibleSpeed && outbound > fastestPlausibleSpeed { continue }
            kept.append(point)
        }
        kept.append(points[points.count - 1])
        return kept
    }
}
