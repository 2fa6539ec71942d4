/// A problem a person must fix: what was wrong, and what to do.
public struct CLIError: Error, Sendable, CustomStringConvertible {
    public var problem: String
    public var fix: String?
    /// Exit status: 2 for misuse of the command line, 1 for everything else.
    public var exitCode: Int32

    public init(_ problem: String, fix: String? = nil, exitCode: Int32 = 1) {
        self.problem = problem
        self.fix = fix
        self.exitCode = exitCode
    }

    public var description: String {
        guard let fix else { return problem }
        return "\(problem): \(fix)"
    }

    package static func usage(_ problem: String, command: String) -> CLIError {
        CLIError(problem, fix: "see `\(command) --help`", exitCode: 2)
    }
}
