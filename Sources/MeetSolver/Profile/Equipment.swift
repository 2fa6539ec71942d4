/// What a skier rides. Learned speeds are kept per equipment key, so a new
/// pair of skis starts a new history; the key is also part of the solver
/// cache key. No speed modifier is applied for equipment itself.
public struct Equipment: Sendable, Equatable, Hashable, Codable {
    /// The preferred ski's id (a UUID string), when the skier chose one.
    public var preferredSkiID: String?

    public init(preferredSkiID: String? = nil) {
        self.preferredSkiID = preferredSkiID
    }

    /// `equipment_key` of `activity.profile_edge_speeds`: the ski id or `none`.
    public var key: String { preferredSkiID ?? "none" }

    public static let none = Equipment()
}
