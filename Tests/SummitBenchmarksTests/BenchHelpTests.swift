import Summit
@testable import SummitBenchmarks
import Testing

/// `summit-bench` answers `--help` for itself and each benchmark, as every command does.
@Suite struct BenchHelpTests {
    @Test func everyBenchmarkHasHelp() throws {
        let root = BenchCommand.program
        #expect(!root.subcommands.isEmpty)
        for command in [root] + root.subcommands {
            let words = (command.name == root.name ? [] : [command.name]) + ["--help"]
            guard case .help(let text) = try ArgumentParser.parse(
                words, root: root, workspace: { throw CLIError("no workspace needed for help") }, console: Console())
            else {
                Issue.record("summit-bench \(words.joined(separator: " ")) did not print help")
                continue
            }
            #expect(text.hasPrefix("usage: summit-bench"), "\(text.prefix(80))")
            #expect(text.contains(command.summary))
        }
    }
}
