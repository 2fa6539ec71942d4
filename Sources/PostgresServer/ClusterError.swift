/// Why the embedded cluster can't do what was asked, and what to do about it.
public struct ClusterError: Error, Sendable, CustomStringConvertible {
    public var problem: String
    public var fix: String
    /// The server log's last lines, when the server itself failed.
    public var logTail: String?

    public init(_ problem: String, fix: String, logTail: String? = nil) {
        self.problem = problem
        self.fix = fix
        self.logTail = logTail
    }

    public var description: String {
        var text = "\(problem): \(fix)"
        if let logTail, !logTail.isEmpty { text += "\nlast lines of the server log:\n\(logTail)" }
        return text
    }
}
