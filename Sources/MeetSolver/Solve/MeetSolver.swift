import MountainGraph

/// Finds the fairest explicit meeting point for two skiers on one dataset at
/// one moment, and re-costs routes on the same model.
///
/// A solver is built for a dataset, its status sidecar, the weather, the
/// skiers and the current instant. Canonical datasets solve at that instant
/// floored to 15 minutes, with lift hours, sun, queue demand and forecast;
/// preview maps solve timeless and never read status. Each skier gets a
/// context of their own (`makeContext(for:)`), so one skier's learned
/// speeds never leak into the other's times.
public struct MeetSolver: Sendable {
    public let dataset: MeetDataset
    public let status: MountainStatus?
    public let conditions: ResortConditions
    /// Unix seconds.
    public let now: Double
    /// Nil on a preview map, where status is never read.
    public let statusUsability: StatusUsability?
    let skiers: [String: Skier]
    let environment: SolveEnvironment
    let cache: SolutionCache?

    /// - Parameter cache: where solutions are remembered; `.shared` is the
    ///   process-wide cache, nil solves every time.
    public init(dataset: MeetDataset, status: MountainStatus?, conditions: ResortConditions = .neutral,
                skiers: [Skier], now: Double, cache: SolutionCache? = .shared) {
        self.dataset = dataset
        self.status = status
        self.conditions = conditions
        self.now = now
        self.cache = cache
        var byID: [String: Skier] = [:]
        for skier in skiers { byID[skier.id] = skier }
        self.skiers = byID
        let graph: MountainGraph
        let appliedStatus: MountainStatus?
        if let identity = dataset.identity {
            let usability = StatusUsability.of(status, resortID: dataset.graph.resortID, identity: identity, now: now)
            statusUsability = usability
            appliedStatus = usability.isUsable ? status : nil
            graph = appliedStatus.map(dataset.graph.applying) ?? dataset.graph
        } else {
            statusUsability = nil
            appliedStatus = nil
            graph = dataset.graph
        }
        environment = SolveEnvironment(graph: RoutingGraph(graph), solveTime: dataset.isCanonical ? SolveEnvironment.bucket(now) : nil,
                                       conditions: conditions, dataset: dataset, status: appliedStatus)
    }

    /// The one way to get a traversal context: for a skier this solver was
    /// given, with their own profile and learned history.
    public func makeContext(for skierID: String) -> TraversalContext? {
        guard let skier = skiers[skierID] else { return nil }
        return TraversalContext(skierID: skier.id, profile: skier.profile, history: skier.history,
                                environment: environment, authoritativeWeather: conditions.isAuthoritative)
    }

    /// The bucketed instant this solver plans at, nil when timeless.
    public var solveTime: Double? { environment.solveTime }

    /// The fingerprint of the graph as solved (status applied).
    public var graphFingerprint: String { environment.graph.fingerprint }

    /// The graph as solved (status applied when usable).
    public var liveGraph: MountainGraph { environment.graph.graph }
}
