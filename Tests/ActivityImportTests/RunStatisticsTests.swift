import Foundation
import Testing
@testable import ActivityImport

/// The figures of a run, filtered: on synthetic runs with known truth
/// (noise, a barometric step and a teleport added on purpose) and on the
/// shared labelled days against the apps' own figures.
@Suite("Run statistics")
struct RunStatisticsTests {
    /// A straight 1200 m descent of 300 m at 15 m/s, one fix a second, with seeded altitude noise.
    static func descent(seed: UInt64 = 4) -> [TrackPoint] {
        var state = seed
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * 4 - 2
        }
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        return (0...80).map { k in
            let along = 15.0 * Double(k)
            return TrackPoint(time: 1_700_000_000 + Double(k), lat: 46 + along / metresPerDegree, lon: 7,
                              elevation: 2500 - along / 4 + noise())
        }
    }

    @Test("vertical follows the true drop and never exceeds the altitude range, with noise and a barometric step")
    func vertical() {
        var points = Self.descent()
        let clean = RunStatistics(points)
        #expect(abs(clean.vertical - 300) < 15, "\(clean.vertical)")
        #expect(clean.vertical <= clean.altitudeRange)
        // A 25 m step down at the middle, which stays: the altimeter catching up, a drop the apps count.
        for k in 40..<points.count { points[k].elevation! -= 25 }
        let down = RunStatistics(points)
        #expect(down.vertical > clean.vertical && down.vertical <= clean.vertical + 25 + 1, "\(down.vertical)")
        #expect(down.vertical <= down.altitudeRange)
        // A 40 m step up instead (steeper than 45° over its 15 m of ground by more than the 8 m allowance):
        // an instrument step, never counted twice. It shrinks what the altimeter recorded, and the
        // vertical is all of that range, never more.
        points = Self.descent()
        for k in 40..<points.count { points[k].elevation! += 40 }
        let up = RunStatistics(points)
        #expect(up.vertical <= clean.vertical, "a step up added vertical: \(up.vertical) against \(clean.vertical)")
        #expect(up.vertical <= up.altitudeRange && up.vertical > up.altitudeRange - 5, "\(up.vertical) of \(up.altitudeRange)")
    }

    @Test("a teleport is not the peak speed; the peak says when it was reached")
    func teleport() throws {
        var points = Self.descent()
        points[30].lat += 0.01 // about 1.1 km away for one fix
        let statistics = RunStatistics(points)
        #expect(abs(statistics.peakSpeed - 15) < 1.5, "\(statistics.peakSpeed)")
        let at = try #require(statistics.peakSpeedAt)
        #expect(at >= points[0].time && at <= points[points.count - 1].time)
        #expect(abs(statistics.distance - 1200) < 60, "\(statistics.distance)")
    }

    @Test("grade is taken over 30 m of ground: a one-fix altitude spike is no cliff")
    func grade() {
        var points = Self.descent()
        let truth = atan(1.0 / 4) * 180 / .pi
        points[50].elevation! += 12
        let statistics = RunStatistics(points)
        #expect(statistics.maxGrade < truth + 8, "\(statistics.maxGrade)° against \(truth)°")
        #expect(statistics.maxGrade > truth - 5)
    }

    @Test("on the labelled Slopes days Summit's vertical, top speed and steepest grade meet the targets against the app's figures",
          .enabled(if: SharedActivities.isPresent, Comment(rawValue: SharedActivities.missingReason)))
    func labelledDays() throws {
        let days = try LabelledDayComparison.compareAll(in: SharedActivities.folder)
        #expect(days.filter { $0.source == .slopes }.count >= 8 && days.contains { $0.source == .gpxExport })
        for day in days {
            let name = "\(day.day) (\(day.source.rawValue))"
            print(String(format: "%@: vertical %.0f m vs %.0f (%+.1f %%), top %.1f vs %.1f m/s (%+.1f %%), steepest %.1f°", name, day.vertical,
                         day.labelVertical, 100 * day.verticalDifference, day.topSpeed, day.labelTopSpeed, 100 * day.topSpeedDifference, day.steepest))
            #expect(day.runsAboveRange == 0, "\(name): a run's vertical above its altitude range")
            #expect(day.verticalWithinTarget, "\(name): vertical \(day.verticalDifference)")
            #expect(day.steepestWithinTarget, "\(name): steepest \(day.steepest)°")
            if let within = day.topSpeedWithinTarget {
                #expect(within, "\(name): top speed \(day.topSpeedDifference)")
            } else {
                // The app's own top is a glitch it kept; Summit's filter does not reach it, and must stay plausible.
                #expect(day.topSpeed < LabelledDayComparison.plausibleTopSpeed, "\(name)")
            }
        }
    }
}

/// Every real ski day, whatever its format: no impossible grade, no run above its range.
@Suite("Real ski days")
struct RealSkiDayFigureTests {
    @Test("every real ski day's steepest grade is at most 45° and no run's vertical exceeds its altitude range",
          .enabled(if: SharedActivities.isPresent, Comment(rawValue: SharedActivities.missingReason)))
    func everyDay() throws {
        var days = 0
        for url in try SharedActivities.files(in: "ski") where !url.pathComponents.contains("malformed") {
            guard let activity = try? ActivityParser.parse(contentsOf: url) else { continue }
            let day = SkiDayImport(activity, matcher: nil, options: .init(resortID: "test"))
            guard !day.runs.isEmpty else { continue }
            days += 1
            let steepest = day.runs.map(\.statistics.maxGrade).max() ?? 0
            print(String(format: "%@: %d runs, steepest %.1f°", url.lastPathComponent, day.runs.count, steepest))
            #expect(steepest <= LabelledDayComparison.steepestLimit, "\(url.lastPathComponent): \(steepest)°")
            #expect(day.runs.allSatisfy { $0.statistics.vertical <= $0.statistics.altitudeRange + 1e-9 }, "\(url.lastPathComponent)")
        }
        #expect(days >= 10, "the shared ski days were read")
    }
}

/// Whether a recording lies at the resort it is imported for.
@Suite("Resort area")
struct ResortAreaTests {
    @Test("a track inside the box is at the resort; 900 km away it is not, and the distance says how far")
    func distance() {
        let keystone = ResortArea(latMin: 39.545, lonMin: -105.98, latMax: 39.615, lonMax: -105.9)
        let inside = ParsedActivity(format: .gpx, fileName: "in.gpx", sourceFileHash: "",
                                    segments: [[TrackPoint(time: 0, lat: 39.58, lon: -105.94)]])
        let far = ParsedActivity(format: .gpx, fileName: "far.gpx", sourceFileHash: "",
                                 segments: [[TrackPoint(time: 0, lat: 38.41, lon: -79.99)]])
        #expect(keystone.contains(inside) && keystone.distance(of: inside) == 0)
        #expect(!keystone.contains(far))
        #expect((keystone.distance(of: far) ?? 0) > 2_000_000)
        let near = ParsedActivity(format: .gpx, fileName: "near.gpx", sourceFileHash: "",
                                  segments: [[TrackPoint(time: 0, lat: 39.615 + 0.02, lon: -105.94)]])
        #expect(keystone.contains(near), "2 km outside the box is within the margin")
    }
}
