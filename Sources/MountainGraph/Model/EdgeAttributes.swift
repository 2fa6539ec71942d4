/// Everything known about one directed edge, as carried on the wire.
public struct EdgeAttributes: Sendable, Equatable {
    public var difficulty: RunDifficulty?
    public var lengthMeters: Double = 0
    public var verticalDrop: Double = 0
    public var averageGradient: Double = 0
    public var maxGradient: Double = 0
    public var aspect: Double?
    public var aspectVariance: Double = 0
    public var trailName: String?
    public var hasMoguls = false
    public var isGladed = false
    public var isGroomed: Bool?
    public var liftType: LiftType?
    public var liftCapacity: Int?
    public var rideTimeSeconds: Double?
    /// Live wait from a status sidecar; always nil in a built blob.
    public var waitTimeMinutes: Double?
    public var isOpen = true
    public var isOfficiallyValidated = false
    public var trailGroupId = ""
    public var midpointElevation: Double = 0
    // Always null from the v15 builder; read by the time model when present.
    public var estimatedTrailWidthMeters: Double?
    public var obstacleDensity: Double?
    public var fallLineExposure: Double?
    public var lastGroomedHoursAgo: Double?
    public var estimatedSurfaceCondition: String?
    public var nightGroomedFlag = false
    /// `"trail:<name>"` / `"lift:<name>"` of the claiming identity.
    public var identityKey: String?
    public var sourceWayId = ""
    public var segmentIndex = 1
    public var direction: EdgeDirection = .forward
    /// Position in the identity's (or, for unclaimed lifts, the way's) directed chain.
    public var chainIndex: Int?
    /// True only on chain index 0 of a directed lift chain: the one boarding queue.
    public var queueEntry = false

    public init() {}
}
