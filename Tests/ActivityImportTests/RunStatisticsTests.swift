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
        // A 25 m barometric step down at the middle, which stays.
        for k in 40..<points.count { points[k].elevation! -= 25 }
        #expect(RunStatistics(points).vertical > 0)
        let stepped = RunStatistics(points)
        // The fix-to-fix change holding the step is dropped whole, true drop and all (under 4 m here).
        #expect(abs(stepped.vertical - 300) < 20, "a barometric step added vertical: \(stepped.vertical)")
        #expect(stepped.vertical <= stepped.altitudeRange)
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

    @Test("on the labelled Slopes days every run's vertical is within its altitude range, and the figures are printed beside the app's",
          .enabled(if: SharedActivities.isPresent, Comment(rawValue: SharedActivities.missingReason)))
    func labelledDays() throws {
        for url in try SharedActivities.files(in: "ski/slopes") {
            let activity = try ActivityParser.parse(contentsOf: url)
            let day = SkiDayImport(activity, matcher: nil, options: .init(resortID: "test"))
            var vertical = 0.0, label = 0.0, top = 0.0, labelTop = 0.0, grade = 0.0
            for run in day.runs {
                #expect(run.statistics.vertical <= run.statistics.altitudeRange + 1e-9, "\(url.lastPathComponent) \(run.rawSourceID)")
                vertical += run.statistics.vertical
                top = max(top, run.statistics.peakSpeed)
                grade = max(grade, run.statistics.maxGrade)
                label += run.appFigures?.vertical ?? 0
                labelTop = max(labelTop, run.appFigures?.topSpeed ?? 0)
            }
            #expect(label > 0, "\(url.lastPathComponent): the Slopes run figures were not kept")
            print(String(format: "%@: vertical %.0f m vs %.0f (%+.1f %%), top %.1f vs %.1f m/s (%+.1f %%), steepest %.1f°",
                         url.lastPathComponent, vertical, label, 100 * (vertical - label) / label, top, labelTop,
                         100 * (top - labelTop) / labelTop, grade))
            let export = SharedActivities.url("ski/gpx/\(url.deletingPathExtension().lastPathComponent)_slopes.gpx")
            if FileManager.default.fileExists(atPath: export.path) {
                // Printed for comparison only: GPX runs come from Summit's own segmentation, not the app's labels.
                let gpx = SkiDayImport(try ActivityParser.parse(contentsOf: export), matcher: nil, options: .init(resortID: "test"))
                let gpxVertical = gpx.runs.reduce(0) { $0 + $1.statistics.vertical }
                let gpxTop = gpx.runs.map(\.statistics.peakSpeed).max() ?? 0
                print(String(format: "  its GPX export: vertical %.0f m (%+.1f %%), top %.1f m/s (%+.1f %%), steepest %.1f°", gpxVertical,
                             100 * (gpxVertical - label) / label, gpxTop, 100 * (gpxTop - labelTop) / labelTop,
                             gpx.runs.map(\.statistics.maxGrade).max() ?? 0))
            }
            // Vertical no longer overstated: within 12 % of the app's labels, below them or above.
            #expect(abs(vertical - label) / label < 0.12, "\(url.lastPathComponent)")
        }
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
