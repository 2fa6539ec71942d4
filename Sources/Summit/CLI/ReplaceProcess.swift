import Foundation

/// Replaces this process with `arguments[0]`, so the program owns the terminal
/// (line editing, ^C), the signals and the exit status as if run directly.
/// Returns only by throwing, when the program cannot be run.
func replaceProcess(with arguments: [String], fix: String) throws -> Never {
    let cArguments = arguments.map { strdup($0) } + [nil]
    execv(arguments[0], cArguments)
    throw CLIError("could not run \(arguments[0]): \(String(cString: strerror(errno)))", fix: fix)
}
