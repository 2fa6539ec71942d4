/// A workspace or database that cannot be set up, and what to do about it.
public struct SetupError: Error, Sendable, CustomStringConvertible {
    public var problem: String
    public var fix: String

    public init(_ problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(problem): \(fix)" }
}
