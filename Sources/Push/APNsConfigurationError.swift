/// The APNs configuration (or key) is unusable: what is wrong and what to do.
public struct APNsConfigurationError: Error, Sendable, CustomStringConvertible {
    public var problem: String
    public var fix: String?

    public init(_ problem: String, fix: String? = nil) {
        self.problem = problem
        self.fix = fix
    }

    public var description: String { problem + (fix.map { " — \($0)" } ?? "") }
}
