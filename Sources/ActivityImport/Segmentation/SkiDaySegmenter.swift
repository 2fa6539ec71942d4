import Foundation
import MountainGraph

/// Splits a ski day into descents (runs) and lift rides.
///
/// Each fix is described by its vertical speed (a least-squares slope of
/// elevation over ±20 s) and its horizontal speed over the same window, which
/// averages GPS noise out. A three-state Viterbi pass (descending, riding a
/// lift, paused) then labels the fixes, charging a fixed cost for every change
/// of state so that a few noisy fixes cannot flip it. Afterwards:
/// - a pause inside a descent (stopping to wait for a friend) stays in that run,
///   and a lift that stops for a while stays one ride;
/// - a descent across several trails is one run: nothing here knows trails;
/// - descents that lose less than 15 m and rides that gain less than 20 m are
///   walking or shuffling, not runs or lifts;
/// - fixes more than 90 s apart split the day (no section spans a gap).
public struct SkiDaySegmenter: Sendable {
    public var halfWindow: Double = 20
    public var maximumGap: Double = 90
    public var switchCost: Double = 30
    public var minimumRunDrop: Double = 15
    public var minimumLiftGain: Double = 20
    /// A pause longer than this ends the descent.
    public var longestPauseInRun: Double = 300

    public init() {}

    enum State: Int, CaseIterable { case run = 0, lift = 1, pause = 2 }

    public func sections(of segments: [[TrackPoint]]) -> [SkiSection] {
        var result: [SkiSection] = []
        for piece in segments.flatMap({ splitAtGaps($0) }) where piece.count >= 5 {
            result += sections(ofContinuous: piece)
        }
        return result
    }

    /// Sections the recording app labelled itself, cut out of the fixes by time.
    public static func sections(from labels: [LabelledSection], of segments: [[TrackPoint]]) -> [SkiSection] {
        let points = segments.flatMap { $0 }
        var result: [SkiSection] = []
        var cursor = 0
        for label in labels.sorted(by: { $0.start < $1.start }) {
            while cursor < points.count, points[cursor].time < label.start { cursor += 1 }
            var end = cursor
            while end < points.count, points[end].time <= label.end { end += 1 }
            let slice = Array(points[cursor..<end])
            if slice.count >= 2 {
                result.append(SkiSection(kind: label.kind == .run ? .run : .lift, points: slice))
            }
        }
        return result
    }

    func splitAtGaps(_ points: [TrackPoint]) -> [[TrackPoint]] {
        var pieces: [[TrackPoint]] = []
        var current: [TrackPoint] = []
        for point in points {
            if let last = current.last, point.time - last.time > maximumGap {
                pieces.append(current)
                current = []
            }
            current.append(point)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    func sections(ofContinuous points: [TrackPoint]) -> [SkiSection] {
        guard let elevations = Self.filledElevations(points) else { return [] }
        let features = Self.features(points, elevations: elevations, halfWindow: halfWindow)
        let states = viterbi(points, features)
        var spans = Self.spans(of: states)
        spans = mergePauses(spans, points: points, elevations: elevations)
        return spans.compactMap { span -> SkiSection? in
            guard span.state != .pause, span.end > span.start else { return nil }
            let change = elevations[span.end] - elevations[span.start]
            let smoothedChange = features.smoothed[span.end] - features.smoothed[span.start]
            switch span.state {
            case .run:
                guard -max(change, smoothedChange) >= minimumRunDrop else { return nil }
                return SkiSection(kind: .run, points: Array(points[span.start...span.end]))
            case .lift:
                guard min(change, smoothedChange) >= minimumLiftGain else { return nil }
                return SkiSection(kind: .lift, points: Array(points[span.start...span.end]))
            case .pause:
                return nil
            }
        }
    }

    // MARK: - Features

    struct Features {
        var verticalSpeed: [Double]
        var horizontalSpeed: [Double]
        /// Elevation averaged over the window.
        var smoothed: [Double]
    }

    /// Elevations with gaps filled by linear interpolation; nil when fewer than half the fixes have one.
    static func filledElevations(_ points: [TrackPoint]) -> [Double]? {
        let known = points.indices.filter { points[$0].elevation != nil }
        guard known.count * 2 >= points.count, let first = known.first, let last = known.last else { return nil }
        var result = [Double](repeating: 0, count: points.count)
        for index in 0..<first { result[index] = points[first].elevation! }
        for index in last..<points.count { result[index] = points[last].elevation! }
        for (a, b) in zip(known, known.dropFirst()) {
            let za = points[a].elevation!, zb = points[b].elevation!
            result[a] = za
            for index in (a + 1)..<max(a + 1, b) {
                let f = (points[index].time - points[a].time) / max(points[b].time - points[a].time, 1e-9)
                result[index] = za + (zb - za) * f
            }
        }
        result[last] = points[last].elevation!
        return result
    }

    static func features(_ points: [TrackPoint], elevations: [Double], halfWindow: Double) -> Features {
        let n = points.count
        let t0 = points[0].time
        // Prefix sums for a least-squares slope over any window.
        var st = [Double](repeating: 0, count: n + 1), sz = st, stt = st, stz = st
        for index in 0..<n {
            let t = points[index].time - t0, z = elevations[index]
            st[index + 1] = st[index] + t
            sz[index + 1] = sz[index] + z
            stt[index + 1] = stt[index] + t * t
            stz[index + 1] = stz[index] + t * z
        }
        var vertical = [Double](repeating: 0, count: n)
        var horizontal = vertical
        var smoothed = vertical
        var low = 0, high = 0
        for index in 0..<n {
            let t = points[index].time
            while points[low].time < t - halfWindow { low += 1 }
            while high + 1 < n, points[high + 1].time <= t + halfWindow { high += 1 }
            // At least two neighbours each side where the track has them.
            let a = max(0, min(low, index - 2)), b = min(n - 1, max(high, index + 2))
            let count = Double(b - a + 1)
            let sumT = st[b + 1] - st[a], sumZ = sz[b + 1] - sz[a]
            let sumTT = stt[b + 1] - stt[a], sumTZ = stz[b + 1] - stz[a]
            let denominator = count * sumTT - sumT * sumT
            vertical[index] = denominator > 1e-9 ? (count * sumTZ - sumT * sumZ) / denominator : 0
            smoothed[index] = sumZ / count
            // Net displacement, not path length: GPS jitter while standing adds path but goes nowhere.
            let span = points[b].time - points[a].time
            let displacement = Geo.distance(points[a].lat, points[a].lon, points[b].lat, points[b].lon)
            horizontal[index] = span > 0 ? displacement / span : 0
        }
        return Features(verticalSpeed: vertical, horizontalSpeed: horizontal, smoothed: smoothed)
    }

    // MARK: - Labelling

    /// Cost per second of being in `state` given the features (0 when they fit it well).
    static func cost(_ state: State, vertical vz: Double, horizontal vh: Double) -> Double {
        switch state {
        case .run:
            return max(0, vz + 0.15) * 4 + max(0, 1.5 - vh) * 1.2
        case .lift:
            return max(0, 0.3 - vz) * 4 + max(0, vh - 7.5) * 0.8
        case .pause:
            return max(0, vh - 0.9) * 2 + max(0, abs(vz) - 0.12) * 4
        }
    }

    func viterbi(_ points: [TrackPoint], _ features: Features) -> [State] {
        let n = points.count
        let states = State.allCases
        var total = [Double](repeating: 0, count: states.count)
        var back = [[UInt8]](repeating: [0, 0, 0], count: n)
        for index in 0..<n {
            // Each fix stands for half the time to each neighbour (capped), so uneven sampling does not bias.
            let before = index > 0 ? points[index].time - points[index - 1].time : 0
            let after = index + 1 < n ? points[index + 1].time - points[index].time : 0
            let weight = min((before + after) / 2, 30)
            var next = total
            for state in states {
                var best = Double.infinity
                var from = 0
                for previous in states {
                    let value = total[previous.rawValue] + (index > 0 && previous != state ? switchCost : 0)
                    if value < best { best = value; from = previous.rawValue }
                }
                next[state.rawValue] = best + weight * Self.cost(state, vertical: features.verticalSpeed[index],
                                                                  horizontal: features.horizontalSpeed[index])
                back[index][state.rawValue] = UInt8(from)
            }
            total = next
        }
        var labels = [State](repeating: .pause, count: n)
        var current = total.indices.min { total[$0] < total[$1] } ?? 0
        for index in stride(from: n - 1, through: 0, by: -1) {
            labels[index] = State(rawValue: current)!
            current = Int(back[index][current])
        }
        return labels
    }

    struct Span {
        var state: State
        var start: Int
        var end: Int
    }

    static func spans(of states: [State]) -> [Span] {
        var spans: [Span] = []
        for (index, state) in states.enumerated() {
            if let last = spans.last, last.state == state {
                spans[spans.count - 1].end = index
            } else {
                spans.append(Span(state: state, start: index, end: index))
            }
        }
        // Consecutive spans share their boundary fix, so sections have no holes.
        for index in 1..<max(spans.count, 1) { spans[index - 1].end = spans[index].start }
        return spans
    }

    /// Folds a pause between two spans of the same kind into one span when the
    /// pause is short and the skier did not climb (run) or descend (lift) in it.
    func mergePauses(_ spans: [Span], points: [TrackPoint], elevations: [Double]) -> [Span] {
        var result: [Span] = []
        var index = 0
        while index < spans.count {
            var span = spans[index]
            while span.state != .pause, index + 2 < spans.count,
                  spans[index + 1].state == .pause, spans[index + 2].state == span.state {
                let pause = spans[index + 1]
                let length = points[pause.end].time - points[pause.start].time
                let change = elevations[pause.end] - elevations[pause.start]
                let fits = span.state == .run ? length <= longestPauseInRun && change < 10
                                              : length <= 2 * longestPauseInRun && change > -10
                guard fits else { break }
                span.end = spans[index + 2].end
                index += 2
            }
            result.append(span)
            index += 1
        }
        return result
    }
}
