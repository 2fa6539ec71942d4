import MountainGraph

/// The mean time of one edge and its standard deviation, seconds.
struct EdgeCost: Equatable {
    var time: Double
    var std: Double
}

extension TraversalContext {
    /// Coefficient of variation of an edge time without learned history.
    static func variation(_ kind: EdgeKind) -> Double {
        switch kind {
        case .lift: return 0.30
        case .run: return 0.15
        case .traverse: return 0.10
        }
    }

    /// The cost of edge `index` entered at `moment`, or nil when the skier
    /// may not (or cannot) take it then.
    func cost(of index: Int, at moment: Moment, rules: RoutingRules = .strict) -> EdgeCost? {
        let edge = environment.graph.edges[index]
        switch edge.kind {
        case .run:
            guard mayTake(run: index, edge, rules) else { return nil }
            let edgeTemperature = moment.weather.temperature(atElevation: edge.midpointElevation)
            let surface = Self.snowSurface(aspect: edge.aspect, aspectVariance: edge.aspectVariance,
                                           temperature: edgeTemperature, at: moment)
            return runCost(index, edge, moment, surface: surface, edgeTemperature: edgeTemperature)
        case .traverse:
            return connectorTime(edge, moment, rules).map { EdgeCost(time: $0, std: std(of: index, kind: .traverse, time: $0)) }
        case .lift:
            return liftTime(index, edge, moment, rules).map { EdgeCost(time: $0, std: std(of: index, kind: .lift, time: $0)) }
        }
    }

    /// The cost of the outgoing edge at `position` of the graph's rows,
    /// remembering run and connector costs in `memo`: a run's time changes
    /// with the clock only through the (rounded) weather and the snow
    /// surface the sun makes, so a label reaching the same edge under the
    /// same ones gets the same cost without working it out again. `weather`
    /// is `memo`'s number for the moment's weather.
    @inline(__always)
    func cost(along edge: OutEdge, position: Int, at moment: Moment, weather: Int32, rules: RoutingRules,
              memo: inout EdgeCostMemo) -> EdgeCost? {
        let index = Int(edge.index)
        switch edge.kind {
        case .lift:
            return cost(of: index, at: moment, rules: rules)
        case .traverse:
            if let known = memo.cost(position, weather, nil) { return known }
            let cost = cost(of: index, at: moment, rules: rules)
            memo.remember(cost, position, weather, nil)
            return cost
        case .run:
            // The surface is the memo's key and the run time's input: worked out once for both.
            let edgeTemperature = moment.weather.temperature(atElevation: edge.midpointElevation)
            let surface = Self.snowSurface(aspect: edge.aspect, aspectVariance: edge.aspectVariance,
                                           temperature: edgeTemperature, at: moment)
            if let known = memo.cost(position, weather, surface) { return known }
            let full = environment.graph.edges[index]
            let cost = mayTake(run: index, full, rules)
                ? runCost(index, full, moment, surface: surface, edgeTemperature: edgeTemperature) : nil
            memo.remember(cost, position, weather, surface)
            return cost
        }
    }

    /// Whether the rules let the skier onto run `index` at all: open, and within their ability.
    @inline(__always)
    private func mayTake(run index: Int, _ edge: borrowing RoutingEdge, _ rules: RoutingRules) -> Bool {
        (edge.isOpen || rules.ignoresClosures) && (plans[index].abilityAllowed || rules.ignoresAbility)
    }

    @inline(__always)
    private func runCost(_ index: Int, _ edge: RoutingEdge, _ moment: Moment, surface: SnowSurface?, edgeTemperature: Double) -> EdgeCost? {
        runTime(index, edge, moment, surface: surface, edgeTemperature: edgeTemperature)
            .map { EdgeCost(time: $0, std: std(of: index, kind: .run, time: $0)) }
    }

    /// What the sun does to a run's snow at `moment` (nil without a clock).
    @inline(__always)
    private static func snowSurface(aspect: (cos: Double, sin: Double)?, aspectVariance: Double, temperature: Double,
                                    at moment: Moment) -> SnowSurface? {
        guard let sun = moment.sun else { return nil }
        return SnowSurface.of(aspect: aspect, aspectVariance: aspectVariance, sun: sun,
                              cloudCover: moment.weather.cloudCover, temperature: temperature)
    }

    /// The cost of only the last `1 − fraction` of an edge the skier is
    /// already on: no queue for a lift they are riding, no boarding hours.
    func remainderCost(of index: Int, fraction: Double, at moment: Moment, rules: RoutingRules = .strict) -> EdgeCost? {
        let edge = environment.graph.edges[index]
        let full: Double?
        switch edge.kind {
        case .run, .traverse: full = cost(of: index, at: moment, rules: rules)?.time
        case .lift: full = edge.isOpen || rules.ignoresClosures ? rideTime(edge, boardingAt: moment) : nil
        }
        guard let full else { return nil }
        let share = 1 - fraction
        return EdgeCost(time: full * share, std: std(of: index, kind: edge.kind, time: full) * share)
    }

    /// Delta method from the learned speed variance when there is one, else a fixed share of the time.
    func std(of index: Int, kind: EdgeKind, time: Double) -> Double {
        let plan = plans[index]
        if kind == .run, plan.learnedSpeed > 0, plan.learnedVariance > 0 {
            return time / plan.learnedSpeed * plan.learnedVariance.squareRoot()
        }
        return Self.variation(kind) * time
    }

    /// A run's time once the gates passed: trail and environment penalties
    /// on the skier's base speed.
    private func runTime(_ index: Int, _ edge: RoutingEdge, _ moment: Moment, surface: SnowSurface?, edgeTemperature: Double) -> Double? {
        let plan = plans[index]
        let weather = moment.weather
        let snow = weather.freshSnow
        func dampen(_ f: Double) -> Double { 1 - (1 - f) * plan.damping }

        var trail = plan.trailFactors
        if profile.conditionIcy < 1 && edgeTemperature < -3 { trail.add(dampen(0.7 + 0.3 * profile.conditionIcy)) }
        if let tolerance = profile.crustConditionTolerance,
           edge.isCrust || (edgeTemperature < -3 && snow > 2 && edge.isGroomed != true) {
            trail.add(dampen(tolerance))
        }
        let trailModifier = max(0.35, trail.combined())

        var environmentFactors = PenaltyFactors()
        if let surface { environmentFactors.add(surface.speedFactor) }
        if !edge.isGladed && weather.wind > 30 { environmentFactors.add(1 / (1 + (weather.wind - 30) * 0.01)) }
        if weather.visibility < 5 {
            environmentFactors.add(1 / (1 + (5 - weather.visibility) * 0.05 * (edge.maxGradient > 25 ? 1.5 : 1)))
        }
        if snow > 5 && edge.isGroomed != true {
            let perCentimetre = SkillLevel.freshSnowPerCentimetre(profile.skillLevel)
            environmentFactors.add(1 / (1 + snow * perCentimetre * (edge.isGroomed == nil ? 0.5 : 1)))
        }
        if edgeTemperature < -15 { environmentFactors.add(0.80) }
        else if edgeTemperature < -8 { environmentFactors.add(0.85) }
        else if edgeTemperature < -3 { environmentFactors.add(0.95) }
        let environmentModifier = max(0.60, environmentFactors.combined())

        var speed = plan.baseSpeed * trailModifier * environmentModifier
        if edge.isGroomed == true && snow > 0 { speed *= min(1 + 0.002 * snow, 1.06) }
        guard speed > 0.1 else { return nil }
        return edge.lengthMeters / speed
    }

    private func connectorTime(_ edge: RoutingEdge, _ moment: Moment, _ rules: RoutingRules) -> Double? {
        if !edge.isOpen && !rules.ignoresClosures { return nil }
        let speed = 1.5 * (moment.weather.freshSnow > 20 ? 0.7 : 1.0)
        return edge.lengthMeters / speed + 6.0 * edge.verticalDrop
    }

    private func liftTime(_ index: Int, _ edge: RoutingEdge, _ moment: Moment, _ rules: RoutingRules) -> Double? {
        if !edge.isOpen && !rules.ignoresClosures { return nil }
        guard let instant = moment.instant else {
            let wait = environment.queues[index]?.timelessWait ?? 0
            return wait + rideTime(edge, boardingAt: moment)
        }
        // One clock reading serves the boarding hours and the queue.
        let reading = environment.clock.reading(at: instant)
        if !rules.ignoresClosures, let window = environment.boardingWindows[index] {
            // Reached at or after closing (or before opening): the lift cannot be used.
            if reading.hour >= window.close || reading.hour < window.open { return nil }
        }
        let wait = environment.queues[index]?.wait(at: instant, reading) ?? 0
        return wait + rideTime(edge, boardingAt: Moment(offset: moment.offset + wait, instant: instant + wait,
                                                        weather: moment.weather, sun: nil))
    }

    /// The ride, stretched by wind at boarding. The wind factor curve is held
    /// up so it never falls faster than 0.9 s of ride per second: a later
    /// boarding never arrives at the top earlier.
    func rideTime(_ edge: RoutingEdge, boardingAt moment: Moment) -> Double {
        let ride = edge.rideTimeSeconds ?? 360
        guard let instant = moment.instant else {
            return ride * WindRideFactor.factor(environment.timeline.conditions.current.wind)
        }
        let factor = environment.timeline.rideFactor.fallLimited(at: instant, decay: 0.9 / ride, range: environment.rideFactorRange)
        return ride * factor
    }
}
