import Foundation
import Summit
import SummitBenchmarks

exit(await SummitCLI.main(Array(CommandLine.arguments.dropFirst()), root: BenchCommand.program))
