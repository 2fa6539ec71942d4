import Foundation
import Summit

exit(await SummitCLI.main(Array(CommandLine.arguments.dropFirst())))
