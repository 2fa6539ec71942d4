import Foundation
import Summit

extension BenchCommand {
    /// What the resort benchmarks (`graph`, `meet`) measure: synthetic
    /// resorts of some sizes and the real extracts in a folder.
    struct ResortSelection {
        var sizes: [Int]
        var seed: UInt64
        var runs: Int
        var folder: URL

        static func options(runs defaultRuns: Int, per what: String) -> [Command.Option] {
            [
                .value("--sizes", "N,N,…", "synthetic sizes (default 1,10,100)"),
                .value("--seed", "N", "the synthetic resorts' seed (default 7)"),
                .value("--runs", "N", "timed runs per \(what); the median is reported (default \(defaultRuns))"),
                .value("--data", "DIR", "the folder of *.ski.osm.json extracts (default ../shared/data/osm)"),
                .flag("--json", "print the measurements as JSON"),
            ]
        }

        init(_ invocation: Invocation, runs defaultRuns: Int) throws {
            sizes = try (invocation.value("--sizes") ?? "1,10,100").split(separator: ",").map {
                try GridsCommand.number(String($0).trimmingCharacters(in: .whitespaces), "--sizes", invocation)
            }
            guard let seed = UInt64(invocation.value("--seed") ?? "7") else {
                throw CLIError.usage("--seed needs a whole number 0 or more", command: invocation.commandPath)
            }
            self.seed = seed
            runs = try invocation.wholeNumber("--runs", default: defaultRuns)
            folder = try invocation.value("--data").map { URL(fileURLWithPath: $0) }
                ?? invocation.workspace().root.deletingLastPathComponent().appendingPathComponent("shared/data/osm")
        }
    }
}
