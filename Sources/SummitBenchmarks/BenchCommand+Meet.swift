import Foundation
import Summit
import MeetSolver
import Postgres
import SummitDatabase

extension BenchCommand {
    static let meet = Command(
        name: "meet",
        summary: "The full meeting-point solve against pgRouting's pgr_dijkstraCost and a plain Dijkstra pair, on the same graphs.",
        discussion: """
            For synthetic resorts (1x, 10x, 100x) and the largest real extract under --data, the same two skiers \
            and starts are solved three ways: Summit's full strict solve (both Pareto-label searches, joint \
            choice, ranking, alternates); a plain single-criterion time-dependent Dijkstra pair on the same edge \
            times with a min-max over the catalog (the floor); and pgRouting's pgr_dijkstraCost one-to-many \
            from both starts with a SQL min-max, in a scratch database (postgresql-15-pgrouting is installed \
            by scripts/packages --bench when missing). Prints median milliseconds and ratios; the target is a \
            full solve faster than pgRouting and within 5x of the floor. Measure a release build: \
            swift build -c release && .build/release/summit bench meet
            """,
        options: ResortSelection.options(runs: 7, per: "path and input"),
        run: { invocation in
            let selection = try ResortSelection(invocation, runs: 7)
            let (sizes, seed, runs, folder) = (selection.sizes, selection.seed, selection.runs, selection.folder)
            let console = invocation.console
            let workspace = try invocation.workspace()
            try ensurePgRouting(workspace, console)
            var inputs: [MeetBenchmark.Input] = []
            for size in sizes {
                console.note("building synthetic resort seed \(seed) size \(size)…")
                inputs.append(try MeetBenchmark.synthetic(seed: seed, size: size))
            }
            if let real = try MeetBenchmark.largestReal(in: folder, progress: { console.note($0) }) {
                inputs.append(real)
            } else {
                console.note("⚠️  no real extracts in \(folder.path); measuring synthetic resorts only (give --data DIR)")
            }
            #if DEBUG
            let configuration = "debug (build with -c release for representative figures)"
            #else
            let configuration = "release"
            #endif
            let results = try await onScratchDatabase(invocation, empty: true) { scratch, _ in
                try await MeetBenchmark(inputs: inputs, runs: runs).run(on: scratch) { console.note($0) }
            }
            if invocation.json { try console.json(results) } else { console.out(MeetBenchmark.table(results, configuration: configuration)) }
            return 0
        })

    /// pgRouting for PostgreSQL 15, through scripts/packages --bench (which
    /// installs it as root, or says which apt-get line to run).
    static func ensurePgRouting(_ workspace: Workspace, _ console: Console) throws {
        let script = workspace.root.appendingPathComponent("scripts/packages")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "--bench"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError("pgRouting (postgresql-15-pgrouting) is not installed, and the benchmark compares against it",
                           fix: "install it: sudo apt-get install -y postgresql-15-pgrouting")
        }
    }
}
