/// A run's figures as the recording app computed them (Slopes `Metadata.xml`
/// `vertical`, `topSpeed`, `avgSpeed`, `distance`). They are kept beside
/// Summit's own `RunStatistics` for comparison; stored figures and stats use
/// Summit's, so every format is measured by the same rules.
public struct AppRunFigures: Sendable, Equatable, Codable {
    public var vertical: Double?
    public var topSpeed: Double?
    public var averageSpeed: Double?
    public var distance: Double?

    public init(vertical: Double? = nil, topSpeed: Double? = nil, averageSpeed: Double? = nil, distance: Double? = nil) {
        self.vertical = vertical
        self.topSpeed = topSpeed
        self.averageSpeed = averageSpeed
        self.distance = distance
    }

    public var isEmpty: Bool { vertical == nil && topSpeed == nil && averageSpeed == nil && distance == nil }
}
