/// One lift ride or one descent of a ski day, with its own fixes.
public struct SkiSection: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case run, lift }

    public var kind: Kind
    /// The fixes from the first to the last of the section, in time order.
    public var points: [TrackPoint]

    public init(kind: Kind, points: [TrackPoint]) {
        self.kind = kind
        self.points = points
    }

    public var start: Double { points.first?.time ?? 0 }
    public var end: Double { points.last?.time ?? 0 }
    public var duration: Double { end - start }
}
