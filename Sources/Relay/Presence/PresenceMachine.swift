/// The presence state machine of one subscriber, without any I/O.
///
/// Every `enter` and `stop` starts a new attempt. The relay carries the attempt
/// number through the awaits of a transition and advances only while it is
/// still current, so a stale enter (overtaken by another enter or a stop while
/// it waited for the database) abandons its remaining steps instead of
/// overwriting the newer state.
public struct PresenceMachine: Sendable, Equatable {
    public private(set) var phase: PresencePhase = .idle
    /// The resort being entered or streamed; nil when idle.
    public private(set) var resort: String?
    public private(set) var attempt = 0

    public init() {}

    /// What `enter` asks the relay to do.
    public enum EnterPlan: Sendable, Equatable {
        /// Already entering or streaming this resort: nothing to do, no second reference.
        case alreadyThere
        /// Run the steps for `attempt`; first tear down `leaving` (another resort's channels and state).
        case begin(attempt: Int, leaving: String?)
    }

    /// Enters `resort`. While on another resort, the plan tears that one down first.
    public mutating func enter(_ resort: String) -> EnterPlan {
        if self.resort == resort, phase != .tearingDown { return .alreadyThere }
        let leaving = phase == .idle ? nil : self.resort
        attempt += 1
        self.resort = resort
        phase = leaving == nil ? .hydratingSocial : .tearingDown
        return .begin(attempt: attempt, leaving: leaving)
    }

    /// Moves on to `next` if `attempt` is still the current one and the step is legal.
    /// A false answer means the transition was overtaken: stop working on it.
    public mutating func advance(to next: PresencePhase, attempt: Int) -> Bool {
        guard attempt == self.attempt, Self.legal(from: phase, to: next) else { return false }
        phase = next
        return true
    }

    /// What `stop` asks the relay to release; nil when already idle.
    public mutating func stop() -> (attempt: Int, resort: String?)? {
        guard phase != .idle else { return nil }
        attempt += 1
        phase = .tearingDown
        return (attempt, resort)
    }

    /// Ends a teardown started by `stop`, unless something newer began meanwhile.
    public mutating func finishStop(attempt: Int) {
        guard attempt == self.attempt, phase == .tearingDown else { return }
        phase = .idle
        resort = nil
    }

    /// Whether `attempt` is still the one in charge.
    public func isCurrent(_ attempt: Int) -> Bool { attempt == self.attempt }

    static func legal(from: PresencePhase, to: PresencePhase) -> Bool {
        switch (from, to) {
        case (.tearingDown, .hydratingSocial), (.hydratingSocial, .subscribingChannels),
             (.subscribingChannels, .live), (.tearingDown, .idle):
            true
        default:
            false
        }
    }
}
