import Foundation

/// A labelled ski day measured by Summit beside the recording app's own figures:
/// a Slopes `.slopes` file carries each run's vertical and top speed as the app
/// showed them (`Metadata.xml`); Summit measures the same runs (the app's labels
/// cut them) and, when the app's GPX export of the day is given, that export too
/// (there Summit finds the runs itself). The targets are issue-level promises the
/// skier can check against the app: day vertical within ±5 % (`.slopes`) or ±10 %
/// (GPX export), day top speed within ±10 % or ±15 %, steepest grade at most 45°,
/// and no run's vertical above its own altitude range.
public struct LabelledDayComparison: Sendable, Encodable {
    public enum Source: String, Sendable, Encodable {
        case slopes
        case gpxExport = "gpx_export"

        var verticalTolerance: Double { self == .slopes ? 0.05 : 0.10 }
        var topSpeedTolerance: Double { self == .slopes ? 0.10 : 0.15 }
    }

    public static let steepestLimit = 45.0
    /// A labelled top above this is a glitch the app kept (it is the import's teleport speed), not a speed a skier reached.
    public static let plausibleTopSpeed = 40.0

    public var day: String
    public var source: Source
    public var runs: Int
    public var vertical: Double
    public var labelVertical: Double
    public var topSpeed: Double
    public var labelTopSpeed: Double
    public var steepest: Double
    /// Runs whose vertical exceeds their own altitude range (never, by the rules).
    public var runsAboveRange: Int

    public var verticalDifference: Double { (vertical - labelVertical) / labelVertical }
    public var topSpeedDifference: Double { (topSpeed - labelTopSpeed) / labelTopSpeed }
    public var verticalWithinTarget: Bool { abs(verticalDifference) <= source.verticalTolerance }
    /// Nil where the label itself is implausible and the target cannot be judged.
    public var topSpeedWithinTarget: Bool? {
        labelTopSpeed > Self.plausibleTopSpeed ? nil : abs(topSpeedDifference) <= source.topSpeedTolerance
    }
    public var steepestWithinTarget: Bool { steepest <= Self.steepestLimit }

    /// The `.slopes` day, and its GPX export when one is given.
    public static func compare(slopes: URL, gpxExport: URL?) throws -> [LabelledDayComparison] {
        let activity = try ActivityParser.parse(contentsOf: slopes)
        let labelled = SkiDayImport(activity, matcher: nil, options: .init(resortID: "comparison"))
        let labelVertical = labelled.runs.reduce(0) { $0 + ($1.appFigures?.vertical ?? 0) }
        let labelTop = labelled.runs.compactMap { $0.appFigures?.topSpeed }.max() ?? 0
        guard labelVertical > 0, labelTop > 0 else {
            throw ActivityImportError(file: slopes.lastPathComponent, position: nil,
                                      .malformed("the file carries no per-run figures of the app's to compare with"))
        }
        let day = slopes.deletingPathExtension().lastPathComponent
        func measured(_ runs: [ImportedRun], _ source: Source) -> LabelledDayComparison {
            LabelledDayComparison(
                day: day, source: source, runs: runs.count, vertical: runs.reduce(0) { $0 + $1.statistics.vertical },
                labelVertical: labelVertical, topSpeed: runs.map(\.statistics.peakSpeed).max() ?? 0, labelTopSpeed: labelTop,
                steepest: runs.map(\.statistics.maxGrade).max() ?? 0,
                runsAboveRange: runs.filter { $0.statistics.vertical > $0.statistics.altitudeRange + 1e-9 }.count)
        }
        var comparisons = [measured(labelled.runs, .slopes)]
        if let gpxExport {
            let export = SkiDayImport(try ActivityParser.parse(contentsOf: gpxExport), matcher: nil, options: .init(resortID: "comparison"))
            comparisons.append(measured(export.runs, .gpxExport))
        }
        return comparisons
    }

    /// Every `.slopes` day under `folder/ski/slopes`, each with `folder/ski/gpx/{day}_slopes.gpx` when present.
    public static func compareAll(in folder: URL) throws -> [LabelledDayComparison] {
        let slopes = folder.appendingPathComponent("ski/slopes")
        let names = try FileManager.default.contentsOfDirectory(atPath: slopes.path).filter { $0.hasSuffix(".slopes") }.sorted()
        return try names.flatMap { name -> [LabelledDayComparison] in
            let day = String(name.dropLast(".slopes".count))
            let export = folder.appendingPathComponent("ski/gpx/\(day)_slopes.gpx")
            return try compare(slopes: slopes.appendingPathComponent(name),
                               gpxExport: FileManager.default.fileExists(atPath: export.path) ? export : nil)
        }
    }
}
