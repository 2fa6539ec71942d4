/// A skier the solver knows: who, how they ski, and what they have learned.
public struct Skier: Sendable {
    public var id: String
    public var profile: SkierProfile
    public var history: SpeedHistory

    public init(id: String, profile: SkierProfile, history: SpeedHistory = .empty) {
        self.id = id
        self.profile = profile
        self.history = history
    }
}

/// A live meet needs a canonical dataset; a rehearsal runs the same strict
/// solve on any map but its result is only ever a preview.
public enum SolveMode: String, Sendable, Equatable {
    case live, rehearsal
}
