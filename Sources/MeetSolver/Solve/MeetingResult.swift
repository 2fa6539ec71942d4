/// How a result may be used. Only `live` results can become a navigable
/// meet; previews and rehearsals are stamped `nonCanonicalDataset`. The
/// two `forcedOpen` values exist only to read old records: no current solve
/// produces them.
public enum SolveAttempt: String, Sendable, Equatable, Codable {
    case live
    case nonCanonicalDataset
    case forcedOpen
    case forcedOpenNeighborSubstitution
}

/// One skier's way to the meeting point.
public struct MeetRoute: Sendable, Equatable, Codable {
    public var skierID: String
    /// Exactly where the route starts (node, or edge and fraction).
    public var origin: RoutingOrigin
    /// Every edge in travel order; a directed start's edge comes first and
    /// only its remainder is charged.
    public var edgeIDs: [String]
    /// Mean seconds from departure to arrival.
    public var eta: Double
    /// Standard deviation of the arrival, seconds.
    public var etaStd: Double
    /// Per edge, in the same order.
    public var legTimes: [Double]
    public var legStds: [Double]
    /// Separate runs, rides and connectors.
    public var actions: Int

    public init(skierID: String, origin: RoutingOrigin, edgeIDs: [String], eta: Double, etaStd: Double,
                legTimes: [Double], legStds: [Double], actions: Int) {
        self.skierID = skierID
        self.origin = origin
        self.edgeIDs = edgeIDs
        self.eta = eta
        self.etaStd = etaStd
        self.legTimes = legTimes
        self.legStds = legStds
        self.actions = actions
    }
}

/// A meeting point and both approaches to it.
public struct MeetingOption: Sendable, Equatable, Codable {
    public var rendezvousPointID: String
    public var nodeID: String
    public var displayName: String
    public var kind: String
    public var confidence: Double
    public var quality: Double
    /// `max(tA, tB) + α·|tA − tB| + 0.5·sqrt(varA + varB)`: lower is better.
    public var score: Double
    /// When the later skier arrives: `max(tA, tB)`.
    public var arrival: Double
    /// How long the earlier one waits: `|tA − tB|`.
    public var spread: Double
    /// `sqrt(varA + varB)`.
    public var uncertainty: Double
    public var alpha: Double
    public var harshWeather: Bool
    public var routeA: MeetRoute
    public var routeB: MeetRoute
}

/// The ranked meeting point with up to four spatially distinct alternates.
public struct MeetingResult: Sendable, Equatable, Codable {
    public var solveAttempt: SolveAttempt
    public var resortID: String
    /// The dataset's identity, nil on a preview map.
    public var datasetVersion: String?
    /// The graph fingerprint after status (open flags, live waits).
    public var graphFingerprint: String
    /// The bucketed solve instant (Unix seconds), nil when timeless.
    public var solveTime: Double?
    public var primary: MeetingOption
    public var alternates: [MeetingOption]
}
