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
    /// The base on weekdays and on weekends: fixed per queue, so worked out once.
    private let weekdayBase: Double
    private let weekendBase: Double
    /// How long the live figure takes to fade into the curve: an hour, longer
    /// for long waits so the fade never falls faster than 0.7 s per second.
    private let fadeLength: Double
    /// The wait carried over each midnight of the days the solve spans.
    private var carried = CarriedWaits.none

    static let maximumFall = 0.9

    /// - Parameter firstDay: the local day (days since the epoch) of the
    ///   solve, whose midnights' carried-over waits are worked out ahead;
    ///   nil works every one out when asked.
    init(operation: LiftOperation?, heuristicWeekday: Double, heuristicWeekend: Double,
         liveWaitMinutes: Double?, observedAt: Double?, clock: ResortClock, firstDay: Int? = nil) {
        self.operation = operation
        self.heuristicWeekday = heuristicWeekday
        self.heuristicWeekend = heuristicWeekend
        self.clock = clock
        weekdayBase = Self.base(operation, heuristicWeekday, heuristicWeekend, false)
        weekendBase = Self.base(operation, heuristicWeekday, heuristicWeekend, true)
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
        fadeLength = max(3_600, (live?.seconds ?? 0) / 0.7)
        if let firstDay {
            let queue = self
            carried = CarriedWaits(firstDay: firstDay) { queue.computeCarriedWait(into: $0) }
        }
    }

    static func base(_ operation: LiftOperation?, _ weekday: Double, _ weekend: Double, _ isWeekend: Bool) -> Double {
        if let minutes = operation?.reviewedWaitMinutes(weekend: isWeekend) { return minutes * 60 }
        return isWeekend ? weekend : weekday
    }

    static func curve(base: Double, hour: Double) -> Double {
        min(QueueDemand.curveCap, base * QueueDemand.multiplier(atLocalHour: hour))
    }

    /// The wait from the curve and live figure, with `weekend` deciding the base.
    @inline(__always)
    private func raw(at instant: Double, weekend: Bool, hour: Double) -> Double {
        let typical = Self.curve(base: weekend ? weekendBase : weekdayBase, hour: hour)
        guard let live else { return typical }
        let weight = max(0, min(1, 1 - (instant - live.observedAt) / fadeLength))
        return weight * live.seconds + (1 - weight) * typical
    }

    /// The wait at the last moment of the day before `day` (its day type, hour 24).
    private func computeCarriedWait(into day: Int) -> Double {
        let midnight = clock.midnight(ofDay: day)
        return raw(at: midnight, weekend: clock.isWeekend(at: midnight - 1), hour: 24)
    }

    /// The wait (seconds) for someone reaching the lift at `instant`.
    func wait(at instant: Double) -> Double {
        wait(at: instant, clock.reading(at: instant))
    }

    /// The wait at `instant`, whose clock reading the caller already has.
    @inline(__always)
    func wait(at instant: Double, _ reading: ResortClock.Reading) -> Double {
        let here = raw(at: instant, weekend: reading.isWeekend, hour: reading.hour)
        let before = carried.wait(into: reading.day) ?? computeCarriedWait(into: reading.day)
        return max(here, before - Self.maximumFall * (instant - reading.midnight))
    }

    /// The wait when there is no solve time (previews): the weekday base, no demand curve.
    var timelessWait: Double { weekdayBase }
}
