import Foundation
import Testing
@testable import ActivityImport

/// Every real recording in `../shared/data/activities`: ski days parse and
/// segment, other sports get a clear verdict, malformed files get the
/// expected typed error. Skipped, loudly, where the folder is absent.
@Suite("Real recordings", .enabled(if: SharedActivities.isPresent, Comment(rawValue: SharedActivities.missingReason)))
struct RealRecordingTests {
    /// What each file in malformed/ must give: an error code, or "parses" with the verdict that follows.
    static let malformedOutcomes: [String: String] = [
        "activity-activity-filecrc.fit": "checksum_mismatch",
        "activity-filecrc.fit": "checksum_mismatch",
        "activity-settings-corruptheader.fit": "malformed",
        "activity-settings-nodata.fit": "truncated",
        "activity-unexpected-eof.fit": "truncated",
        // Field sizes that are not a multiple of the base type are read where they hold a value.
        "coros-pace-2-cycling-misaligned-fields.fit": "not_ski",
        "lezyne_super_gps-garmin_fit-sample-bad-endian.fit": "checksum_mismatch",
        "sportslib_31-days-activity.fit": "implausible_duration",
        // The 0,0 fixes at the start are dropped; the ride itself is not skiing.
        "sportslib_broken-start-latlng.fit": "not_ski",
        "sportslib_empty-activities.fit": "checksum_mismatch",
        "sportslib_empty-sessions.fit": "empty_file",
        "sportslib_inverted-times.fit": "not_ski",
        "unterminated-strings.fit": "no_track_points",
        "cerknicko-jezero-without-elevations.gpx": "not_ski",
        "cerknicko-without-times.gpx": "missing_timestamps",
        "empty_name_tag.gpx": "no_track_points",
        "gpx-with-node-with-comments.gpx": "not_ski",
        "gpx-without-root-attributes.gpx": "implausible_time",
        "gpx-without-xml-declaration.gpx": "implausible_time",
        "track-with-empty-segment.gpx": "not_ski",
        "unicode_with_bom.gpx": "no_track_points",
    ]

    /// The outcome code of one file: its error code, or its verdict.
    static func outcome(_ url: URL) -> (code: String, activity: ParsedActivity?, day: SkiDayImport?) {
        do {
            let activity = try ActivityParser.parse(contentsOf: url)
            let day = SkiDayImport(activity, matcher: nil, options: .init(resortID: "test"))
            return (day.verdict.isSkiDay ? "ski_day" : "not_ski", activity, day)
        } catch {
            return (error.code, nil, nil)
        }
    }

    @Test("every malformed file gets its expected outcome, with the file named in the message")
    func malformed() throws {
        let files = try SharedActivities.files(in: "malformed")
        #expect(files.count >= 20)
        for url in files {
            let expected = Self.malformedOutcomes[url.lastPathComponent]
            let (code, _, _) = Self.outcome(url)
            #expect(code == expected, "\(url.lastPathComponent): got \(code)")
            if code != "not_ski" {
                do { _ = try ActivityParser.parse(contentsOf: url) } catch {
                    #expect(error.description.hasPrefix(url.lastPathComponent))
                }
            }
        }
    }

    @Test("every generic (non-ski) file parses and is judged not a ski day")
    func generic() throws {
        let files = try SharedActivities.files(in: "generic")
        #expect(files.count >= 15)
        for url in files {
            let (code, activity, _) = Self.outcome(url)
            if url.lastPathComponent == "compressed-speed-distance.fit" {
                // No GPS at all, and device-clock times: nothing to place on a mountain.
                #expect(code == "no_track_points")
                continue
            }
            #expect(code == "not_ski", "\(url.lastPathComponent): got \(code), \(String(describing: activity?.sport)) \(String(describing: Self.outcome(url).day?.liftRides))")
            #expect((activity?.pointCount ?? 0) > 0, "\(url.lastPathComponent) read no fixes")
        }
    }

    @Test("every ski recording parses into a ski day with runs and lift rides")
    func skiDays() throws {
        let files = try SharedActivities.files(in: "ski")
        #expect(files.count >= 13)
        for url in files {
            let (code, activity, day) = Self.outcome(url)
            #expect(code == "ski_day", "\(url.lastPathComponent): got \(code)")
            guard let activity, let day else { continue }
            #expect(day.runs.count >= 5, "\(url.lastPathComponent): only \(day.runs.count) runs")
            if url.lastPathComponent.hasPrefix("ischgl") {
                continue // 200–2000 s between fixes: too sparse to see every lift
            }
            #expect(day.liftRides >= 5, "\(url.lastPathComponent): only \(day.liftRides) lift rides")
            if ["slopes", "skiz"].contains(url.pathExtension) {
                #expect(!activity.labelledSections.isEmpty && day.usedAppLabels)
            }
            for run in day.runs {
                // No clamp any more: the filtered peak stays below what the teleport filter allows.
                #expect(run.statistics.vertical <= run.statistics.altitudeRange && run.statistics.peakSpeed < TrackFilter.teleportSpeed
                        && run.statistics.peakSpeed >= run.statistics.movingAverageSpeed,
                        "\(url.lastPathComponent) \(run.rawSourceID): \(run.statistics)")
            }
        }
    }

    @Test("the Slopes GPX export of a day finds broadly the runs the app labelled")
    func gpxAgreesWithSlopes() throws {
        for day in ["keystone_2024-01-25", "snowshoe_2024-02-24", "loveland_2025-03-13"] {
            let gpx = try #require(Self.outcome(SharedActivities.url("ski/gpx/\(day)_slopes.gpx")).day)
            let slopes = try #require(Self.outcome(SharedActivities.url("ski/slopes/\(day).slopes")).day)
            let score = SegmentationScore(
                detected: gpx.runs.map { .init(kind: .run, start: $0.runAt, end: $0.endedAt) },
                truth: slopes.runs.map { .init(kind: .run, start: $0.runAt, end: $0.endedAt) })
            print("\(day): GPX runs vs Slopes labels P=\(score.precision) R=\(score.recall)")
            // Slopes' labels are its own segmentation, not ground truth; the two must broadly agree.
            #expect(score.precision >= 0.65 && score.recall >= 0.65, "\(day): P=\(score.precision) R=\(score.recall)")
        }
    }

    @Test("on real days, segmentation agrees with the apps' own labels (≥ 80 % precision and recall)")
    func segmentationAgreesWithAppLabels() throws {
        var total = SegmentationScore(truth: 0, detected: 0, matched: 0)
        for url in try SharedActivities.files(in: "ski") where ["slopes", "skiz"].contains(url.pathExtension) {
            let activity = try ActivityParser.parse(contentsOf: url)
            let labels = SkiDaySegmenter.sections(from: activity.labelledSections, of: activity.segments)
            let detected = SkiDaySegmenter().sections(of: activity.segments)
            total = total + SegmentationScore(detected: detected.map(\.interval), truth: labels.map(\.interval))
        }
        print("real days, detected vs app labels: P=\(total.precision) R=\(total.recall) over \(total.truth) labelled sections")
        #expect(total.truth > 200)
        #expect(total.precision >= 0.8 && total.recall >= 0.8)
    }
}
