import Foundation
import Summit

extension BenchCommand {
    static let routability = Command(
        name: "routability",
        summary: "How routable and meetable each real resort is after review, beside the seed's strict rule and connectors alone.",
        discussion: """
            For Grandvalira, Pal-Arinsal and Ordino-Arcalís (cut from the Andorra extract by their boxes), Okemo and \
            Mammoth in ../shared/data/osm (or --data): the draft ingest makes, its proposals, and for each path the \
            share of open lift tops reaching an open run, of open lift ends inside the largest strongly connected \
            component over open edges, of nodes in it, of run edges closed, and a meet sample of --sample random \
            pairs on open runs (fixed --seed; an intermediate and an advanced skier, all lifts open, 10:30 local), \
            with how many outcomes disagree with plain reachability. No database is touched; the output is the \
            same for the same data and seed.
            """,
        options: [
            .value("--data", "DIR", "the folder of extracts (default ../shared/data/osm)"),
            .value("--sample", "N", "pairs per meet sample (default 200)"),
            .value("--seed", "N", "the meet sample's seed (default 1)"),
            .value("--out", "DIR", "also write each reviewed graph there as canonical JSON and GeoJSON"),
            .flag("--json", "print the measurements as JSON"),
        ],
        run: { invocation in
            let folder = try invocation.value("--data").map { URL(fileURLWithPath: $0) }
                ?? invocation.workspace().root.deletingLastPathComponent().appendingPathComponent("shared/data/osm")
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIError("\(folder.path) is not there: the routability benchmark needs the real extracts",
                               fix: "give --data DIR, the folder holding the shared OSM extracts")
            }
            var benchmark = RoutabilityBenchmark(folder: folder)
            benchmark.sampling.pairs = try invocation.wholeNumber("--sample", default: 200)
            guard let seed = UInt64(invocation.value("--seed") ?? "1") else {
                throw CLIError.usage("--seed needs a whole number 0 or more", command: invocation.commandPath)
            }
            benchmark.sampling.seed = seed
            if let out = invocation.value("--out") {
                let url = URL(fileURLWithPath: out, isDirectory: true)
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                benchmark.output = url
            }
            let console = invocation.console
            let results = try benchmark.run { console.note($0) }
            if invocation.json {
                try console.json(results)
            } else {
                console.out(RoutabilityBenchmark.table(results))
            }
            return 0
        })
}
