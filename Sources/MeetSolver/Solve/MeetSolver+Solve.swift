import Digest

extension MeetSolver {
    /// The fairest meeting point for two skiers, or the first strict failure
    /// that applies: nonCanonicalDataset, operationalStatusUnavailable,
    /// startUnresolved, noRendezvousCatalog, abilityGated, closures, noRoute.
    public func solve(_ a: SkierStart, _ b: SkierStart, mode: SolveMode = .live) -> Result<MeetingResult, MeetFailure> {
        solveReport(a, b, mode: mode).outcome
    }

    public func solveReport(_ a: SkierStart, _ b: SkierStart, mode: SolveMode = .live) -> SolveReport {
        func failed(_ failure: MeetFailure) -> SolveReport { SolveReport(outcome: .failure(failure), cacheHit: false, key: nil) }
        if mode == .live && !dataset.isCanonical { return failed(.nonCanonicalDataset) }
        if let usability = statusUsability, !usability.isUsable { return failed(.operationalStatusUnavailable(usability)) }
        guard let contextA = makeContext(for: a.skierID) else {
            return failed(.startUnresolved(skierID: a.skierID, reason: "the solver was given no profile for this skier"))
        }
        guard let contextB = makeContext(for: b.skierID) else {
            return failed(.startUnresolved(skierID: b.skierID, reason: "the solver was given no profile for this skier"))
        }
        let startA: ResolvedStart, startB: ResolvedStart
        switch resolve(a, context: contextA) {
        case let .success(start): startA = start
        case let .failure(failure): return failed(failure)
        }
        switch resolve(b, context: contextB) {
        case let .success(start): startB = start
        case let .failure(failure): return failed(failure)
        }
        if environment.graph.rendezvous.isEmpty { return failed(.noRendezvousCatalog) }

        let key = cacheKey(mode: mode, contextA, startA, contextB, startB)
        if let cached = cache?.value(for: key) {
            return SolveReport(outcome: cached, cacheHit: true, key: key)
        }
        let outcome = search(mode: mode, contextA, startA, contextB, startB)
        cache?.store(outcome, for: key)
        return SolveReport(outcome: outcome, cacheHit: false, key: key)
    }

    func cacheKey(mode: SolveMode, _ contextA: TraversalContext, _ startA: ResolvedStart,
                  _ contextB: TraversalContext, _ startB: ResolvedStart) -> SolveCacheKey {
        func start(_ context: TraversalContext, _ start: ResolvedStart) -> String {
            "\(context.skierID) \(start.origin.descriptor) acc=\(start.accuracyMeters.map { "\($0)" } ?? "-")"
        }
        return SolveCacheKey(
            graphFingerprint: environment.graph.fingerprint,
            datasetVersion: dataset.datasetVersion ?? "preview:\(dataset.graph.resortID)",
            mode: mode.rawValue,
            startA: start(contextA, startA), startB: start(contextB, startB),
            profileA: contextA.profile.fingerprint, profileB: contextB.profile.fingerprint,
            contextA: contextA.signature, contextB: contextB.signature,
            historyDigest: SHA256.hex(contextA.history.digest + ":" + contextB.history.digest),
            equipmentA: contextA.profile.equipment.key, equipmentB: contextB.profile.equipment.key,
            alphaTable: RendezvousAlpha.tableVersion)
    }

    /// Both label searches, the joint choice per candidate, ranking and
    /// alternates; on no candidate, the relaxed probes that name the reason.
    func search(mode: SolveMode, _ contextA: TraversalContext, _ startA: ResolvedStart,
                _ contextB: TraversalContext, _ startB: ResolvedStart) -> Result<MeetingResult, MeetFailure> {
        let graph = environment.graph
        return SearchWorkspacePool.shared.withWorkspaces(nodeCount: graph.nodeCount, edgeCount: graph.edgeCount) { a, b in
            LabelSearch.run(contextA, from: startA, rules: .strict, in: &a)
            LabelSearch.run(contextB, from: startB, rules: .strict, in: &b)
            return choose(mode: mode, a.forest, contextA, startA, b.forest, contextB, startB)
        }
    }

    /// The joint choice per candidate, ranking and alternates over both
    /// skiers' forests; on no candidate, the failure that names the reason.
    func choose(mode: SolveMode, _ forestA: LabelForest, _ contextA: TraversalContext, _ startA: ResolvedStart,
                _ forestB: LabelForest, _ contextB: TraversalContext, _ startB: ResolvedStart) -> Result<MeetingResult, MeetFailure> {
        let candidates = jointChoices(forestA, forestB)
        guard !candidates.isEmpty else {
            return .failure(classifyFailure(contextA, startA, contextB, startB))
        }
        // Sorting positions moves 8 bytes per swap instead of a whole choice;
        // the order is total, so it is the order the choices themselves sort in.
        let order = candidates.indices.sorted { JointChoice.ranksBefore(candidates[$0], candidates[$1]) }
        let ranked = order.lazy.map { candidates[$0] }
        let primary = candidates[order[0]]
        let alternates = self.alternates(to: primary, from: ranked, forestA: forestA)
        func option(_ choice: JointChoice) -> MeetingOption {
            meetingOption(choice, forestA, contextA, startA, forestB, contextB, startB)
        }
        return .success(MeetingResult(
            solveAttempt: mode == .live && dataset.isCanonical ? .live : .nonCanonicalDataset,
            resortID: dataset.graph.resortID, datasetVersion: dataset.datasetVersion,
            graphFingerprint: environment.graph.fingerprint, solveTime: environment.solveTime,
            primary: option(primary), alternates: alternates.map(option)))
    }

    /// No strict candidate: would one exist without ability gates, or without closures?
    func classifyFailure(_ contextA: TraversalContext, _ startA: ResolvedStart,
                         _ contextB: TraversalContext, _ startB: ResolvedStart) -> MeetFailure {
        func reachable(_ rules: RoutingRules) -> Bool {
            let a = LabelSearch.run(contextA, from: startA, rules: rules)
            let b = LabelSearch.run(contextB, from: startB, rules: rules)
            return environment.graph.rendezvous.contains { a.counts[Int($0.node)] > 0 && b.counts[Int($0.node)] > 0 }
        }
        if reachable(.withoutAbilityGates) { return .abilityGated }
        if reachable(.withoutClosures) { return .closures }
        return .noRoute
    }

    /// A forest label turned into the route it stands for.
    func route(_ forest: LabelForest, to label: Int32, _ context: TraversalContext, _ start: ResolvedStart) -> MeetRoute {
        let graph = environment.graph
        var chain: [Label] = []
        var cursor = label
        while cursor >= 0 {
            let l = forest.labels[Int(cursor)]
            chain.append(l)
            cursor = l.predecessor
        }
        chain.reverse()
        var edgeIDs: [String] = [], legTimes: [Double] = [], legStds: [Double] = []
        var previous: Label?
        for l in chain where l.via >= 0 {
            edgeIDs.append(graph.edgeIDs[Int(l.via)])
            if let p = previous {
                legTimes.append(l.time - p.time)
                legStds.append(l.actionKey == p.actionKey && l.actions == p.actions ? l.current - p.current : l.current)
            } else {
                legTimes.append(l.time)
                legStds.append(l.current)
            }
            previous = l
        }
        let final = forest.labels[Int(label)]
        return MeetRoute(skierID: context.skierID, origin: start.origin, edgeIDs: edgeIDs, eta: final.time,
                         etaStd: final.variance.squareRoot(), legTimes: legTimes, legStds: legStds, actions: Int(final.actions))
    }

    func meetingOption(_ choice: JointChoice, _ forestA: LabelForest, _ contextA: TraversalContext, _ startA: ResolvedStart,
                       _ forestB: LabelForest, _ contextB: TraversalContext, _ startB: ResolvedStart) -> MeetingOption {
        let point = environment.graph.rendezvous[choice.candidate].point
        return MeetingOption(
            rendezvousPointID: point.id, nodeID: point.nodeId, displayName: point.displayName, kind: point.kind.rawValue,
            confidence: point.confidence, quality: point.quality,
            score: choice.score, arrival: choice.arrival, spread: choice.spread, uncertainty: choice.uncertainty,
            alpha: choice.alpha, harshWeather: choice.harsh,
            routeA: route(forestA, to: choice.labelA, contextA, startA),
            routeB: route(forestB, to: choice.labelB, contextB, startB))
    }
}
