/// The boarding queue of one queue-entry lift edge as a function of arrival
/// time, first-in-first-out by construction: whoever reaches the lift later
/// never boards earlier.
///
/// The wait is the demand curve `min(600, base · demand(hour))`, faded from
/// a live observed wait when the status sidecar has one. Its pieces fall by
/// at most 0.87 s per second: demand changes slowly, and the fade from a live
/// wait takes at least an hour and longer for very long waits. The one jump
/// is at local midnight, when the day type (and so the base) can change; the
/// wait just after midnight is held up by the wait before it, falling 0.9 s
/// per second. Completion `t + wait(t)` therefore never decreases.
struct LiftQueue: Sendable {
    /// Reviewed waits and the lift's type and capacity, for the base.
    let operation: LiftOperation?
    let heuristicWeekday: Double
    let heuristicWeekend: Double
    /// The observed live wait (seconds, after the sanity blend) and when it was observed.
    let live: (seconds: Double, observedAt: Double)?
    let clock: ResortClock

    static let maximumFall = 0.9

    init(operation: LiftOperation?, heuristicWeekday: Double, heuristicWeekend: Double,
         liveWaitMinutes: Double?, observedAt: Double?, clock: ResortClock) {
        self.operation = operation
        self.heuristicWeekday = heuristicWeekday
        self.heuristicWeekend = heuristicWeekend
        self.clock = clock
        if let minutes = liveWaitMinutes, minutes >= 0, minutes <= 60, let observedAt {
            var seconds = minutes * 60
            // A live figure far from the typical curve is pulled towards it. Judged
            // once, at the observation, so the live part cannot jump later.
            let typical = Self.curve(base: Self.base(operation, heuristicWeekday, heuristicWeekend, clock.isWeekend(at: observedAt)),
                                     hour: clock.hour(at: observedAt))
            if typical > 0 && (3 * seconds < typical || seconds > 3 * typical) {
                seconds = 0.7 * seconds + 0.3 * typical
            }
            live = (seconds, observedAt)
        } else {
            live = nil
        }
    }

    static func base(_ operation: LiftOperation?, _ weekday: Double, _ weekend: Double, _ isWeekend: Bool) -> Double {
        if let minutes = operation?.reviewedWaitMinutes(weekend: isWeekend) { return minutes * 60 }
        return isWeekend ? weekend : weekday
    }

    static func curve(base: Double, hour: Double) -> Double {
        min(QueueDemand.curveCap, base * QueueDemand.multiplier(atLocalHour: hour))
    }

    /// How long the live figure takes to fade into the curve: an hour, longer
    /// for long waits so the fade never falls faster than 0.7 s per second.
    private var fadeLength: Double { max(3_600, (live?.seconds ?? 0) / 0.7) }

    /// The wait from the curve and live figure, with `weekend` deciding the base.
    private func raw(at instant: Double, weekend: Bool, hour: Double) -> Double {
        let typical = Self.curve(base: Self.base(operation, heuristicWeekday, heuristicWeekend, weekend), hour: hour)
        guard let live else { return typical }
        let weight = max(0, min(1, 1 - (instant - live.observedAt) / fadeLength))
        return weight * live.seconds + (1 - weight) * typical
    }

    /// The wait (seconds) for someone reaching the lift at `instant`.
    func wait(at instant: Double) -> Double {
        let here = raw(at: instant, weekend: clock.isWeekend(at: instant), hour: clock.hour(at: instant))
        let midnight = clock.midnight(atOrBefore: instant)
        // The last moment of the previous day: its day type, hour 24.
        let before = raw(at: midnight, weekend: clock.isWeekend(at: midnight - 1), hour: 24)
        return max(here, before - Self.maximumFall * (instant - midnight))
    }

    /// The wait when there is no solve time (previews): the weekday base, no demand curve.
    var timelessWait: Double { Self.base(operation, heuristicWeekday, heuristicWeekend, false) }
}
