/// When a phone in an active meet may replace its own remaining path. The
/// meeting point never moves; a candidate path is adopted only if it is a
/// different path, the skier is not about to arrive, the gain is real, and
/// the phone is not flapping between paths.
public struct RouteSwitchPolicy: Sendable, Equatable {
    public var minimumRemaining = 30.0
    public var minimumGain = 30.0
    public var minimumGainShare = 0.10
    public var evaluationInterval = 30.0
    public var abandonedPathMemory = 120.0

    public init() {}

    /// What the policy remembers between evaluations.
    public struct State: Sendable, Equatable {
        public var lastEvaluationAt: Double?
        /// Paths given up recently, with when.
        public var abandoned: [(edgeIDs: [String], at: Double)] = []

        public init() {}

        public static func == (a: State, b: State) -> Bool {
            a.lastEvaluationAt == b.lastEvaluationAt && a.abandoned.count == b.abandoned.count
                && zip(a.abandoned, b.abandoned).allSatisfy { $0.edgeIDs == $1.edgeIDs && $0.at == $1.at }
        }
    }

    public enum Decision: Sendable, Equatable {
        case adopt
        case keep(Reason)
    }

    public enum Reason: String, Sendable, Equatable {
        case tooSoon, identicalPath, nearArrival, gainTooSmall, recentlyAbandoned
    }

    /// - Parameters:
    ///   - bypassGain: a deviation reroute (off route ≥ 20 s and > 150 m)
    ///     skips the gain check, never closures or ability (the candidate
    ///     comes from a strict solve).
    public func evaluate(current: [String], currentMean: Double, candidate: [String], candidateMean: Double,
                         now: Double, state: inout State, bypassGain: Bool = false) -> Decision {
        if let last = state.lastEvaluationAt, now - last < evaluationInterval { return .keep(.tooSoon) }
        state.lastEvaluationAt = now
        state.abandoned.removeAll { now - $0.at > abandonedPathMemory }
        if candidate == current { return .keep(.identicalPath) }
        if currentMean <= minimumRemaining { return .keep(.nearArrival) }
        if !bypassGain && currentMean - candidateMean < max(minimumGain, minimumGainShare * currentMean) {
            return .keep(.gainTooSmall)
        }
        if state.abandoned.contains(where: { $0.edgeIDs == candidate }) { return .keep(.recentlyAbandoned) }
        state.abandoned.append((current, now))
        return .adopt
    }
}
