/// One structural problem in a graph: what it concerns and what is wrong.
public struct GraphProblem: Sendable, Equatable, CustomStringConvertible {
    /// `node n123`, `edge t45_s2`, `lift chain l77`, `rendezvous rp9`, …
    public let subject: String
    public let message: String

    public var description: String { "\(subject): \(message)" }
}
