import MountainGraph

/// How long each edge takes one particular skier, and how uncertain that is,
/// at any moment of the solve. Built only by `MeetSolver.makeContext(for:)`
/// — one per skier, reading that skier's own learned speeds — so the route
/// narrative, ETAs and the solve itself never drift apart.
public struct TraversalContext: Sendable {
    public let skierID: String
    public let profile: SkierProfile
    let environment: SolveEnvironment
    let plans: [EdgePlan]
    let history: SpeedHistory

    /// The per-skier, per-edge facts that do not depend on the clock.
    struct EdgePlan: Sendable {
        var baseSpeed: Double
        /// From trusted learned history, else 0.
        var learnedSpeed: Double
        var learnedVariance: Double
        var abilityAllowed: Bool
        /// `dampen(f) = 1 − (1 − f)·damping`: slow skiers feel trail problems less.
        var damping: Double
        /// Moguls, grooming, glades, steepness, width, exposure.
        var trailFactors: PenaltyFactors
    }

    init(skierID: String, profile: SkierProfile, history: SpeedHistory, environment: SolveEnvironment, authoritativeWeather: Bool) {
        self.skierID = skierID
        self.profile = profile
        self.environment = environment
        self.history = history
        let weather = environment.weatherAtSolve
        let equipment = profile.equipment.key
        let levelCap = SkillLevel.gradientComfortCap(profile.skillLevel)
        let steepness = SkillLevel.steepnessWeight(profile.skillLevel)
        let graph = environment.graph
        var fingerprints: [Int: String] = [:]
        plans = graph.edges.indices.map { index in
            let edge = graph.edges[index]
            guard edge.kind == .run else {
                return EdgePlan(baseSpeed: 0, learnedSpeed: 0, learnedVariance: 0, abilityAllowed: true, damping: 1, trailFactors: PenaltyFactors())
            }
            let edgeID = graph.edgeIDs[index]
            var learned: EdgeSpeedObservation?
            if history.hasRows(for: edgeID) {
                // The live bucket depends only on the weather and three trail facts: work each out once.
                let facts = (edge.hasMoguls ? 1 : 0) | (edge.isGroomed == true ? 2 : edge.isGroomed == false ? 4 : 0) | (edge.isGladed ? 8 : 0)
                let fingerprint = fingerprints[facts] ?? ConditionsFingerprint.fingerprint(
                    weather: authoritativeWeather
                        ? ConditionsFingerprint.Weather(temperature: weather.temperature, wind: weather.wind, snow24h: weather.freshSnow,
                                                        visibility: weather.visibility, cloudCover: weather.cloudCover)
                        : nil,
                    hasMoguls: edge.hasMoguls, isGroomed: edge.isGroomed, isGladed: edge.isGladed)
                fingerprints[facts] = fingerprint
                learned = history.observation(edgeID: edgeID, liveFingerprint: fingerprint, equipmentKey: equipment)
            }
            let profileSpeed = profile.speeds[edge.difficulty ?? .blue] ?? 0
            let base = learned?.speed ?? (profileSpeed > 0 ? profileSpeed : 1.5)
            let damping = base < 5.0 ? 0.7 : 1.0
            func dampen(_ f: Double) -> Double { 1 - (1 - f) * damping }

            var factors = PenaltyFactors()
            if edge.hasMoguls { factors.add(dampen(profile.mogulTolerance ?? profile.conditionMoguls)) }
            switch edge.isGroomed {
            case false?: factors.add(dampen(profile.conditionUngroomed))
            case nil: factors.add(dampen((profile.conditionUngroomed + 1) / 2))
            case true?: break
            }
            if edge.isGladed { factors.add(dampen(profile.conditionGladed)) }
            let cap = profile.maxComfortableGradientDegrees ?? levelCap
            let start = 0.9 * cap
            if edge.maxGradient > start {
                let progress = min((edge.maxGradient - start) / max(cap - start, 1), 1)
                let beyond = max(0, edge.maxGradient - cap)
                factors.add(max(0.3, 1 - (progress + beyond / 90) * steepness))
            }
            if let width = edge.trailWidth, let tolerance = profile.narrowTrailTolerance, width < 20 {
                let narrowness = max(0, min(1, (20 - width) / 12))
                factors.add(dampen(1 - (1 - tolerance) * narrowness))
            }
            if let exposure = edge.fallLineExposure, let tolerance = profile.exposureTolerance, exposure > 0.5 {
                factors.add(dampen(1 - (1 - tolerance) * (exposure - 0.5) * 2))
            }
            return EdgePlan(baseSpeed: base, learnedSpeed: learned?.speed ?? 0, learnedVariance: learned?.speedVariance ?? 0,
                            abilityAllowed: profile.mayRide(difficulty: edge.difficulty, gladed: edge.isGladed),
                            damping: damping, trailFactors: factors)
        }
    }

    /// The bucketed solve instant, or nil for a timeless preview.
    public var solveTime: Double? { environment.solveTime }

    /// The weather, clock and sun of this context, in one line: everything
    /// about it (besides the profile and history) that can change a time.
    public var signature: String { environment.signature }
}
