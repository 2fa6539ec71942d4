import Foundation
import Postgres

/// `summit bench …`: benchmarks, each on a scratch database cloned from the
/// test template, so they never touch Summit's own data.
enum BenchCommand {
    static let command = Command(
        name: "bench",
        summary: "Run a benchmark on a scratch database cloned from the test template.",
        subcommands: [grids, sync])

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
            guard let runs = Int(invocation.value("--runs") ?? "25"), runs > 0 else {
                throw CLIError.usage("--runs needs a positive number", command: invocation.commandPath)
            }
            let console = invocation.console
            let workspace = try invocation.workspace()
            let databases = TestDatabases(admin: try await SummitDatabase(workspace: workspace).prepareAdmin(), workspace: workspace)
            console.note("preparing a scratch database from the test template…")
            let scratch = try await databases.create(from: try await databases.template())
            let results: [GridsBenchmark.Measurement]
            do {
                results = try await GridsBenchmark(sizes: sizes, runs: runs).run(on: scratch) { console.note($0) }
            } catch {
                if !invocation.flag("--keep") { try? await databases.drop(scratch) }
                throw error
            }
            if invocation.flag("--keep") {
                console.note("kept the scratch database \(scratch.database ?? "")")
            } else {
                try await databases.drop(scratch)
            }
            if invocation.json {
                try console.json(results)
            } else {
                console.out(table(results))
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
            func count(_ option: String, _ fallback: Int) throws -> Int {
                guard let value = Int((invocation.value(option) ?? String(fallback)).replacingOccurrences(of: "_", with: "")),
                      value > 0 else {
                    throw CLIError.usage("\(option) needs a positive number", command: invocation.commandPath)
                }
                return value
            }
            let benchmark = SyncBenchmark(pullRows: try count("--pull", 100_000), pushRows: try count("--push", 10_000),
                                          runs: try count("--runs", 3))
            let console = invocation.console
            let workspace = try invocation.workspace()
            let databases = TestDatabases(admin: try await SummitDatabase(workspace: workspace).prepareAdmin(), workspace: workspace)
            console.note("preparing a scratch database from the test template…")
            let scratch = try await databases.create(from: try await databases.template())
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("summit-bench-sync-" + UUID().uuidString.prefix(8))
            defer { try? FileManager.default.removeItem(at: folder) }
            let result: SyncBenchmark.Result
            do {
                result = try await benchmark.run(on: scratch, folder: folder) { console.note($0) }
            } catch {
                if !invocation.flag("--keep") { try? await databases.drop(scratch) }
                throw error
            }
            if invocation.flag("--keep") {
                console.note("kept the scratch database \(scratch.database ?? "")")
            } else {
                try await databases.drop(scratch)
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
