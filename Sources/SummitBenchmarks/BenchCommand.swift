import ActivityImport
import Foundation
import Summit
import MountainGraph
import Postgres

/// `summit-bench …` (also run as `summit bench …`): benchmarks, each on a scratch
/// database cloned from the test template, so they never touch Summit's own data.
package enum BenchCommand {
    package static let program = Command(
        name: "summit-bench",
        summary: "Run a benchmark on a scratch database cloned from the test template (also run as `summit bench`).",
        subcommands: [grids, graph, routability, activity, sync, relay, meet, gateway, push])

    static let grids = Command(
        name: "grids",
        summary: "A friend's profile through can_view() against the same rows by primary key, at 10k, 100k and 1M moments.",
        discussion: """
            One person has 240 moments on six boards of mixed audiences; a friend reads the ones they may see \
            (grids.visible_moments_of, as the friend, with RLS and claims), and the table owner fetches the same \
            rows by primary key. Between sizes the table grows with other people's moments. Prints the median \
            milliseconds of each path and their ratio; the target is a ratio under 3x that stays flat as the \
            table grows. Loading a million moments takes a minute or two and about a gigabyte of disk, freed \
            when the scratch database is dropped.
            """,
        options: [
            .value("--sizes", "N,N,…", "table sizes in moments (default 10000,100000,1000000)"),
            .value("--runs", "N", "timed runs per path and size; the median is reported (default 25)"),
            .flag("--keep", "keep the scratch database afterwards (its name is printed)"),
            .flag("--json", "print the measurements as JSON"),
        ],
        run: { invocation in
            let sizes = try (invocation.value("--sizes") ?? "10000,100000,1000000").split(separator: ",").map { part in
                guard let size = Int(part.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")),
                      size > GridsBenchmark.ownerMoments else {
                    throw CLIError.usage("--sizes takes numbers above \(GridsBenchmark.ownerMoments), like 10000,100000",
                                         command: invocation.commandPath)
                }
                return size
            }
            let runs = try invocation.wholeNumber("--runs", default: 25)
            let console = invocation.console
            let results = try await onScratchDatabase(invocation) { scratch, _ in
                try await GridsBenchmark(sizes: sizes, runs: runs).run(on: scratch) { console.note($0) }
            }
            if invocation.json {
                try console.json(results)
            } else {
                console.out(table(results))
            }
            return 0
        })

    static let graph = Command(
        name: "graph",
        summary: "Graph build time for each real extract and synthetic resorts 1x, 10x, 100x, beside the time to only decode the OSM JSON.",
        discussion: """
            Decoding the OSM JSON is the floor; the build (decode + graph) should stay within 3x of it, and its \
            time should grow linearly with size (log-log slope ≤ 1.1 across the synthetic resorts). Real extracts come from \
            ../shared/data/osm beside the checkout (or --data), each with the DEM tiles in dem/ that cover it \
            (the others build flat). No database is touched. Build with `swift build -c release` for representative figures.
            """,
        options: ResortSelection.options(runs: 3, per: "input"),
        run: { invocation in
            let selection = try ResortSelection(invocation, runs: 3)
            let (sizes, seed, runs, folder) = (selection.sizes, selection.seed, selection.runs, selection.folder)
            let console = invocation.console
            var inputs: [GraphBenchmark.Input] = []
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
                inputs += try GraphBenchmark.realExtracts(in: folder)
            } else {
                console.note("⚠️  no real extracts: \(folder.path) is not there; measuring synthetic resorts only (give --data DIR)")
            }
            for size in sizes {
                console.note("generating synthetic resort seed \(seed) size \(size)…")
                inputs.append(.init(name: "synthetic \(size)x", bytes: SyntheticResort(seed: seed, size: size).overpassJSON(), size: size,
                                    elevation: nil))
            }
            let results = try GraphBenchmark(inputs: inputs, runs: runs).run { console.note($0) }
            if invocation.json {
                try console.json(results)
            } else {
                console.out(GraphBenchmark.table(results))
            }
            return 0
        })

    static let activity = Command(
        name: "activity",
        summary: "Summit's FIT and GPX parsers against fitdecode, fitparse and gpxpy in MB/s, and every labelled ski day against the app's figures.",
        discussion: """
            Reads every FIT and GPX recording under --data that Summit accepts, then times Summit's parsers \
            and the Python parsers (installed from PyPI into .build/activity-bench-venv on first use) on the \
            same bytes, side by side. Prints MB/s and how many times faster Summit is; the target is 20x. \
            Then every labelled day (ski/slopes/*.slopes, and its GPX export ski/gpx/DAY_slopes.gpx): Summit's \
            day vertical, top speed and steepest grade beside the app's own figures and the difference, with the \
            targets (vertical ±5 % / ±10 % for the export, top speed ±10 % / ±15 %, steepest at most 45°). \
            Measure a release build: swift build -c release && .build/release/summit bench activity
            """,
        options: [
            .value("--data", "DIR", "the recordings (default ../shared/data/activities beside the checkout)"),
            .value("--seconds", "S", "time each parser for at least S seconds (default 2)"),
            .flag("--json", "print the measurements as JSON"),
        ],
        run: { invocation in
            let workspace = try invocation.workspace()
            let data = invocation.value("--data").map { URL(fileURLWithPath: $0) }
                ?? workspace.root.deletingLastPathComponent().appendingPathComponent("shared/data/activities")
            guard let seconds = Double(invocation.value("--seconds") ?? "2"), seconds > 0, seconds <= 600 else {
                throw CLIError.usage("--seconds needs a number of seconds, up to 600", command: invocation.commandPath)
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: data.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIError("there is no folder \(data.path)", fix: "give --data a folder of FIT and GPX recordings")
            }
            #if DEBUG
            let configuration = "debug (build with -c release for representative figures)"
            #else
            let configuration = "release"
            #endif
            invocation.console.note("Summit built \(configuration)")
            let results = try await ActivityBenchmark(dataFolder: data, workspace: workspace, seconds: seconds)
                .run { invocation.console.note($0) }
            let labelled = FileManager.default.fileExists(atPath: data.appendingPathComponent("ski/slopes").path)
                ? try LabelledDayComparison.compareAll(in: data) : []
            if invocation.json {
                try invocation.console.json(ActivityBenchmark.Report(parsers: results, labelledDays: labelled))
            } else {
                invocation.console.out(ActivityBenchmark.table(results, configuration: configuration))
                if !labelled.isEmpty {
                    invocation.console.out("\n" + ActivityBenchmark.labelledTable(labelled))
                }
            }
            return 0
        })

    static let sync = Command(
        name: "sync",
        summary: "The sync protocol against plain SQL: a 100k-row pull and a 10k-row push, rows/s and their ratio.",
        discussion: """
            One person's moments are pulled page by page through sync_pull (as the person: RLS on, rows as JSON) \
            and, for the baseline, read page by page by the table owner (no RLS); new moments are pushed through \
            sync_push (as the person: RLS, the last-write-wins and game-rule triggers) and, for the baseline, \
            written in the same batches by the table owner with triggers off. Beside them: the rules alone (the same \
            rows inserted as the person with every trigger, a statement per batch), and a phone's whole path into \
            and out of its SQLite store. The target is a protocol rate at least half the plain one.
            """,
        options: [
            .value("--pull", "N", "moments to pull (default 100000)"),
            .value("--push", "N", "moments to push (default 10000)"),
            .value("--runs", "N", "timed runs of each path; the fastest counts (default 3)"),
            .flag("--keep", "keep the scratch database afterwards (its name is printed)"),
            .flag("--json", "print the measurements as JSON"),
        ],
        run: { invocation in
            let benchmark = SyncBenchmark(pullRows: try invocation.wholeNumber("--pull", default: 100_000),
                                          pushRows: try invocation.wholeNumber("--push", default: 10_000),
                                          runs: try invocation.wholeNumber("--runs", default: 3))
            let console = invocation.console
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("summit-bench-sync-" + UUID().uuidString.prefix(8))
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try await onScratchDatabase(invocation) { scratch, _ in
                try await benchmark.run(on: scratch, folder: folder) { console.note($0) }
            }
            if invocation.json { try console.json(result) } else { console.out(table(result)) }
            return 0
        })

    static func table(_ result: SyncBenchmark.Result) -> String {
        func rate(_ figure: SyncBenchmark.Figure) -> [String] {
            ["  " + figure.path, figure.rows.formatted(), String(format: "%.2f s", figure.seconds),
             Int(figure.rowsPerSecond.rounded()).formatted() + " rows/s"]
        }
        let rows: [[String]] = [
            ["pull", "", "", ""], rate(result.pullProtocol), rate(result.pullPlain), rate(result.pullIntoPhone),
            ["push", "", "", ""], rate(result.pushProtocol), rate(result.pushPlain), rate(result.pushRules), rate(result.pushFromPhone),
        ]
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { cells in
            zip(cells, widths).enumerated().map { index, cell in
                index == 0 ? cell.0.padding(toLength: cell.1, withPad: " ", startingAt: 0)
                           : String(repeating: " ", count: cell.1 - cell.0.count) + cell.0
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        lines.append("")
        for (name, ratio) in [("pull", result.pullRatio), ("push", result.pushRatio)] {
            lines.append("\(name): protocol at \(String(format: "%.0f%%", ratio * 100)) of plain SQL — target 50% "
                         + (ratio >= 0.5 ? "met" : "missed"))
        }
        return lines.joined(separator: "\n")
    }

    static func table(_ results: [GridsBenchmark.Measurement]) -> String {
        func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
        let header = ["moments", "visible", "can_view RPC", "by primary key", "ratio", "can_view per row"]
        let rows = results.map { result in
            [result.moments.formatted(), String(result.visible), ms(result.viewMilliseconds),
             ms(result.primaryKeyMilliseconds), String(format: "%.2fx", result.ratio), ms(result.canViewPerRowMilliseconds)]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let line = { (cells: [String]) in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var lines = [line(header)] + rows.map(line)
        let ratios = results.map(\.ratio)
        if let low = ratios.min(), let high = ratios.max() {
            let under = high < 3
            // Flat: the largest ratio within half again of the smallest.
            let flat = high <= low * 1.5
            lines.append("")
            lines.append("target: ratio under 3x (\(under ? "met" : "missed"), highest \(String(format: "%.2fx", high))), "
                         + "flat as the table grows (\(flat ? "met" : "missed"), \(String(format: "%.2fx", low)) to \(String(format: "%.2fx", high)))")
        }
        return lines.joined(separator: "\n")
    }
}
