/// Which rules a search enforces. Strict solves enforce all; the relaxed
/// variants only classify a failure (abilityGated, closures) and never
/// produce a route.
struct RoutingRules: Sendable, Equatable {
    var ignoresAbility = false
    /// Closed edges and lift hours.
    var ignoresClosures = false

    static let strict = RoutingRules()
    static let withoutAbilityGates = RoutingRules(ignoresAbility: true)
    static let withoutClosures = RoutingRules(ignoresClosures: true)
}
