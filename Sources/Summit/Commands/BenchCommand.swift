import Foundation
import Postgres

/// `summit bench …`: benchmarks, each on a scratch database cloned from the
/// test template, so they never touch Summit's own data.
enum BenchCommand {
    static let command = Command(
        name: "bench",
        summary: "Run a benchmark on a scratch database cloned from the test template.",
        subcommands: [grids, relay])

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
