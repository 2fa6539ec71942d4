import ActivityImport
import Foundation
import Summit
import PostgresServer
import SummitDatabase

/// `summit bench activity`: Summit's FIT and GPX parsers against the Python
/// parsers people use (fitdecode, fitparse, gpxpy), on the same files, in one run.
///
/// Every file is read into memory first; each parser then decodes all files of
/// its format again and again for at least `seconds`, and throughput is bytes
/// decoded per second. The Python side runs in a virtualenv under `.build/`,
/// created (and filled from PyPI) on first use.
struct ActivityBenchmark {
    struct Measurement: Encodable, Sendable {
        var parser: String
        var format: String
        var files: Int
        var megabytes: Double
        var seconds: Double
        var megabytesPerSecond: Double
        /// Summit's throughput over this parser's, for the same format (1 for Summit itself).
        var summitSpeedup: Double
    }

    /// What `--json` prints: the parsers' throughput and the labelled days' figures.
    struct Report: Encodable, Sendable {
        var parsers: [Measurement]
        var labelledDays: [LabelledDayComparison]

        enum CodingKeys: String, CodingKey {
            case parsers
            case labelledDays = "labelled_days"
        }
    }

    var dataFolder: URL
    var workspace: Workspace
    var seconds: Double = 2

    static let peers = ["fitdecode", "fitparse", "gpxpy"]

    /// The recordings both sides can read: every FIT and GPX file Summit accepts,
    /// outside `malformed/` (the Python parsers refuse several of those).
    func files() throws -> [(format: ActivityFormat, url: URL, bytes: [UInt8])] {
        guard let walker = FileManager.default.enumerator(at: dataFolder, includingPropertiesForKeys: nil) else {
            throw CLIError("cannot read \(dataFolder.path)", fix: "give --data the folder of recordings (../shared/data/activities)")
        }
        var found: [(ActivityFormat, URL, [UInt8])] = []
        for case let url as URL in walker where ["fit", "gpx"].contains(url.pathExtension.lowercased())
            && !url.pathComponents.contains("malformed") {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let bytes = Array(data)
            guard let parsed = try? ActivityParser.parse(bytes, fileName: url.lastPathComponent) else { continue }
            found.append((parsed.format, url, bytes))
        }
        return found.sorted { $0.1.path < $1.1.path }
    }

    func run(note: (String) -> Void) async throws -> [Measurement] {
        let python = try await pythonEnvironment(note: note)
        let script = workspace.root.appendingPathComponent("scripts/activity-bench-peers.py").path
        let listing = FileManager.default.temporaryDirectory.appendingPathComponent("summit-activity-bench-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: listing) }

        // The files both sides read: Summit's accepted ones that every Python parser also accepts.
        var inputs = try files()
        try JSONSerialization.data(withJSONObject: inputs.map { ["format": $0.format.rawValue, "path": $0.url.path] }).write(to: listing)
        let check = try await Subprocess(executable: python, arguments: [script, "--files", listing.path, "--check"]).run()
        guard check.succeeded, let kept = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [[String: String]] else {
            throw CLIError("the Python peers could not check the files: \(check.stderr.suffix(600))", fix: "delete .build/activity-bench-venv and run again")
        }
        let keptPaths = Set(kept.compactMap { $0["path"] })
        inputs = inputs.filter { keptPaths.contains($0.url.path) }
        let fit = inputs.filter { $0.format == .fit }, gpx = inputs.filter { $0.format == .gpx }
        guard !fit.isEmpty, !gpx.isEmpty else {
            throw CLIError("no FIT or GPX recordings under \(dataFolder.path) that every parser reads", fix: "give --data a folder holding both")
        }
        try JSONSerialization.data(withJSONObject: inputs.map { ["format": $0.format.rawValue, "path": $0.url.path] }).write(to: listing)

        var results: [Measurement] = []
        for (format, group) in [("fit", fit), ("gpx", gpx)] {
            note("Summit: parsing \(group.count) \(format.uppercased()) files (\(group.reduce(0) { $0 + $1.bytes.count } / 1024) KiB) for \(seconds) s…")
            results.append(measureSummit(format: format, group.map { ($0.url.lastPathComponent, $0.bytes) }))
        }
        note("Python: fitdecode, fitparse and gpxpy on the same files for \(seconds) s each…")
        let output = try await Subprocess(executable: python, arguments: [script, "--files", listing.path, "--seconds", String(seconds)]).run()
        guard output.succeeded, let peers = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: [String: Any]] else {
            throw CLIError("the Python peers failed: \(output.stderr.suffix(600))", fix: "delete .build/activity-bench-venv and run again")
        }
        for name in Self.peers {
            guard let peer = peers[name], let format = peer["format"] as? String, let bytes = (peer["bytes"] as? NSNumber)?.doubleValue,
                  let elapsed = (peer["seconds"] as? NSNumber)?.doubleValue, let files = (peer["files"] as? NSNumber)?.intValue else { continue }
            let rate = bytes / 1_048_576 / elapsed
            let summit = results.first { $0.parser == "summit" && $0.format == format }?.megabytesPerSecond ?? 0
            results.append(Measurement(parser: name, format: format, files: files, megabytes: bytes / 1_048_576, seconds: elapsed,
                                       megabytesPerSecond: rate, summitSpeedup: rate > 0 ? summit / rate : 0))
        }
        return results
    }

    private func measureSummit(format: String, _ files: [(String, [UInt8])]) -> Measurement {
        let total = files.reduce(0) { $0 + $1.1.count }
        var rounds = 0
        let clock = ContinuousClock()
        let start = clock.now
        var elapsed = 0.0
        var points = 0
        repeat {
            for (name, bytes) in files {
                points &+= (try? ActivityParser.parse(bytes, fileName: name).pointCount) ?? 0
            }
            rounds += 1
            let duration = clock.now - start
            elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        } while elapsed < seconds || rounds < 2
        let megabytes = Double(total * rounds) / 1_048_576
        return Measurement(parser: "summit", format: format, files: files.count, megabytes: megabytes, seconds: elapsed,
                           megabytesPerSecond: megabytes / elapsed, summitSpeedup: 1)
    }

    /// `.build/activity-bench-venv/bin/python` with the peers installed, made on first use.
    private func pythonEnvironment(note: (String) -> Void) async throws -> String {
        let venv = workspace.root.appendingPathComponent(".build/activity-bench-venv")
        let python = venv.appendingPathComponent("bin/python").path
        let check = FileManager.default.isExecutableFile(atPath: python)
            ? try await Subprocess(executable: python, arguments: ["-c", "import fitdecode, fitparse, gpxpy"]).run() : nil
        if check?.succeeded == true { return python }
        note("creating \(venv.path) with fitdecode, fitparse and gpxpy from PyPI (once)…")
        let create = try await Subprocess(executable: "/usr/bin/env", arguments: ["python3", "-m", "venv", venv.path]).run()
        guard create.succeeded else {
            throw CLIError("cannot create a Python virtualenv: \(create.stderr.suffix(400))", fix: "install python3 and python3-venv")
        }
        let install = try await Subprocess(executable: python, arguments: ["-m", "pip", "install", "--quiet", "fitdecode", "fitparse", "gpxpy"]).run()
        guard install.succeeded else {
            throw CLIError("pip could not install fitdecode, fitparse and gpxpy: \(install.stderr.suffix(400))", fix: "check access to PyPI")
        }
        return python
    }

    static func table(_ results: [Measurement], configuration: String) -> String {
        let header = ["parser", "format", "files", "MB decoded", "seconds", "MB/s", "Summit is"]
        let rows = results.map { r in
            [r.parser, r.format.uppercased(), String(r.files), String(format: "%.1f", r.megabytes), String(format: "%.2f", r.seconds),
             String(format: "%.2f", r.megabytesPerSecond), r.parser == "summit" ? "-" : String(format: "%.1fx faster", r.summitSpeedup)]
        }
        var lines = TextTable.lines([header] + rows)
        let peerRatios = results.filter { $0.parser != "summit" }.map(\.summitSpeedup)
        if let lowest = peerRatios.min() {
            lines.append("")
            lines.append("target: at least 20x the Python parsers' throughput (\(lowest >= 20 ? "met" : "missed"), lowest \(String(format: "%.1fx", lowest)))"
                         + "; Summit built \(configuration)")
        }
        return lines.joined(separator: "\n")
    }

    /// Every labelled day: Summit, the app's figure, the difference, and whether each target holds.
    static func labelledTable(_ days: [LabelledDayComparison]) -> String {
        func mark(_ within: Bool?) -> String { within.map { $0 ? "ok" : "MISSED" } ?? "label implausible" }
        let header = ["labelled day", "source", "runs", "vertical m", "app's", "diff", "", "top m/s", "app's", "diff", "", "steepest", ""]
        let rows = days.map { d in
            [d.day, d.source == .slopes ? ".slopes" : "GPX export", String(d.runs),
             String(format: "%.0f", d.vertical), String(format: "%.0f", d.labelVertical), String(format: "%+.1f %%", 100 * d.verticalDifference),
             mark(d.verticalWithinTarget && d.runsAboveRange == 0),
             String(format: "%.1f", d.topSpeed), String(format: "%.1f", d.labelTopSpeed), String(format: "%+.1f %%", 100 * d.topSpeedDifference),
             mark(d.topSpeedWithinTarget), String(format: "%.1f°", d.steepest), mark(d.steepestWithinTarget)]
        }
        let missed = days.filter { !$0.verticalWithinTarget || $0.topSpeedWithinTarget == false || !$0.steepestWithinTarget || $0.runsAboveRange > 0 }
        return (TextTable.lines([header] + rows) + ["",
            "targets: vertical ±5 % (.slopes) / ±10 % (GPX export), no run above its altitude range; top speed ±10 % / ±15 % "
                + "(not judged where the app's top exceeds \(Int(LabelledDayComparison.plausibleTopSpeed)) m/s); steepest ≤ 45° — "
                + (missed.isEmpty ? "all met" : "\(missed.count) day(s) missed")]).joined(separator: "\n")
    }
}
