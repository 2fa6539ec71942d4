/// The best pair of approaches (one label per skier) to one candidate stop.
struct JointChoice {
    /// Index into the graph's rendezvous list (id order).
    var candidate: Int
    var labelA: Int32
    var labelB: Int32
    var score: Double
    var arrival: Double
    var spread: Double
    var uncertainty: Double
    var actions: Int32
    var alpha: Double
    var harsh: Bool
    var confidence: Double
    var quality: Double

    init(candidate: Int, labelA: Int32, labelB: Int32, score: Double, arrival: Double, spread: Double, uncertainty: Double,
         actions: Int32, alpha: Double, harsh: Bool, confidence: Double, quality: Double) {
        self.candidate = candidate
        self.labelA = labelA
        self.labelB = labelB
        self.score = score
        self.arrival = arrival
        self.spread = spread
        self.uncertainty = uncertainty
        self.actions = actions
        self.alpha = alpha
        self.harsh = harsh
        self.confidence = confidence
        self.quality = quality
    }

    /// Score, arrival, spread and uncertainty in whole milliseconds: what ranking compares.
    var key: (Int64, Int64, Int64, Int64) {
        (Milliseconds.rounded(score), Milliseconds.rounded(arrival), Milliseconds.rounded(spread), Milliseconds.rounded(uncertainty))
    }

    /// Whether the millisecond keys of `a` come before those of `b`, or nil
    /// when they are equal. Scores more than a millisecond apart decide
    /// without rounding (rounding keeps their order).
    @inline(__always)
    static func keyOrder(_ a: JointChoice, _ b: JointChoice) -> Bool? {
        if abs(a.score - b.score) > 0.001 { return a.score < b.score }
        let x = a.key, y = b.key
        return x == y ? nil : x < y
    }

    /// Within one candidate: score, arrival, spread, uncertainty, actions, then label order.
    static func pairBefore(_ a: JointChoice, _ b: JointChoice) -> Bool {
        if let order = keyOrder(a, b) { return order }
        if a.actions != b.actions { return a.actions < b.actions }
        if a.labelA != b.labelA { return a.labelA < b.labelA }
        return a.labelB < b.labelB
    }

    /// Across candidates: score, arrival, spread, uncertainty, higher catalog
    /// confidence, higher stop quality, then stable id (catalog order).
    static func ranksBefore(_ a: JointChoice, _ b: JointChoice) -> Bool {
        if let order = keyOrder(a, b) { return order }
        if a.confidence != b.confidence { return a.confidence > b.confidence }
        if a.quality != b.quality { return a.quality > b.quality }
        return a.candidate < b.candidate
    }
}

extension MeetSolver {
    /// For every rendezvous point both skiers reach, the pair of their labels
    /// there with the best joint score. Each skier's fastest label is always
    /// among them, so a slower, surer approach wins only on the joint score:
    /// fairness picks a stop, never a detour.
    func jointChoices(_ forestA: LabelForest, _ forestB: LabelForest) -> [JointChoice] {
        let graph = environment.graph
        var choices: [JointChoice] = []
        for (index, entry) in graph.rendezvous.enumerated() {
            guard forestA.counts[Int(entry.node)] > 0, forestB.counts[Int(entry.node)] > 0 else { continue }
            let elevation = graph.nodeElevations[Int(entry.node)]
            var best: JointChoice?
            // The places hold each label's time, variance and actions: no waiting on the labels themselves.
            forestA.forEachPlace(at: entry.node) { la in
                forestB.forEachPlace(at: entry.node) { lb in
                    let a = la.id, b = lb.id
                    let arrival = max(la.exactTime, lb.exactTime)
                    // A score is never below its arrival: a pair arriving more than a
                    // millisecond after the best score so far cannot come before it.
                    if let best, arrival - best.score > 0.001 { return }
                    let spread = abs(la.exactTime - lb.exactTime)
                    let uncertainty = (la.variance + lb.variance).squareRoot()
                    let harsh = RendezvousAlpha.isHarsh(weather(atOffset: arrival), stopElevation: elevation)
                    let alpha = RendezvousAlpha.alpha(entry.point.kind, harsh: harsh)
                    let choice = JointChoice(
                        candidate: index, labelA: a, labelB: b, score: arrival + alpha * spread + 0.5 * uncertainty,
                        arrival: arrival, spread: spread, uncertainty: uncertainty, actions: la.actions + lb.actions,
                        alpha: alpha, harsh: harsh, confidence: entry.point.confidence, quality: entry.point.quality)
                    if best.map({ JointChoice.pairBefore(choice, $0) }) ?? true { best = choice }
                }
            }
            if let best { choices.append(best) }
        }
        return choices
    }

    /// The solver's weather `offset` seconds after the solve time.
    func weather(atOffset offset: Double) -> QuantizedWeather {
        environment.timeline.quantized(at: environment.solveTime.map { $0 + offset })
    }
}
