/// A change the phone refuses, as the app would: what was wrong and what to do instead.
public struct GridStoreError: Error, Sendable, CustomStringConvertible, Equatable {
    public var problem: String
    public var fix: String

    public init(_ problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(problem): \(fix)" }
}
