import Foundation

/// `summit bench …` runs `summit-bench …`: the benchmarks are a program of their
/// own, built beside `summit`, so the product carries none of their code or of
/// the peers they launch (wrk, nginx, Python, pgRouting).
enum BenchForwardCommand {
    static let command = Command(
        name: "bench",
        summary: "Run a benchmark: `summit bench NAME …` runs `summit-bench NAME …`, built beside summit.",
        discussion: "`summit bench` alone lists the benchmarks; `summit bench NAME --help` describes one.",
        passesThrough: true,
        run: { invocation in
            let program = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("summit-bench")
            let build = "build it beside summit with `swift build --product summit-bench` (add `-c release` for representative figures)"
            guard FileManager.default.isExecutableFile(atPath: program.path) else {
                throw CLIError("summit bench runs \(program.path), which is not built", fix: build)
            }
            try replaceProcess(with: [program.path] + (invocation.passthrough.isEmpty ? ["--help"] : invocation.passthrough), fix: build)
        })
}
