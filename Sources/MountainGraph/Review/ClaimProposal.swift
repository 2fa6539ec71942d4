/// An identity the review step suggests for routable ways no manifest row
/// claims: without one, the build closes them. Each proposal is one simple
/// chain of ways, so it always builds on its own; `osm_way_ids` stay
/// authoritative, and the name says where it came from.
public struct ClaimProposal: Sendable, Equatable {
    public enum Reason: String, Sendable, CaseIterable {
        /// The ways carry no name at all.
        case unnamed
        /// One branch of a name whose ways fork or merge.
        case branch
        /// One piece of a name whose ways lie apart.
        case piece
        /// The ways of a name form one chain the draft left out.
        case whole
    }

    public var kind: GraphIdentity.Kind
    public var name: String
    /// The name the ways carry in OSM, if any.
    public var sourceName: String?
    public var reason: Reason
    public var wayIDs: [Int64]
    /// Evidence: the chain's drawn length, its highest and lowest vertex, and
    /// the tags every way agrees on.
    public var lengthMeters: Double
    public var topElevation: Double
    public var bottomElevation: Double
    public var difficulty: RunDifficulty?
    public var liftType: LiftType?
    public var capacity: Int?

    public var trail: CanonicalTrail? {
        kind == .trail ? CanonicalTrail(name: name, difficulty: difficulty, osmWayIDs: wayIDs) : nil
    }

    public var lift: CanonicalLift? {
        kind == .lift ? CanonicalLift(name: name, liftType: liftType, capacity: capacity, osmWayIDs: wayIDs) : nil
    }
}

/// A name the review step could not turn into identities, and why.
public struct UnclaimableWays: Sendable, Equatable {
    public var kind: GraphIdentity.Kind
    public var name: String?
    public var wayIDs: [Int64]
    public var reason: String
}
