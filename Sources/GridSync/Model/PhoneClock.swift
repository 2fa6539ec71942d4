/// A phone's own clock: the real time, off by however much the phone's clock is
/// wrong (`skew`) and moved on by however much simulated time has passed (`advanced`).
///
/// Writes are stamped with it (`created_at`, `updated_at`, which decide
/// last-write-wins), and it times the retry schedule.
public struct PhoneClock: Sendable, Hashable {
    /// Seconds this phone's clock runs ahead (negative: behind) of the true time.
    public var skew: Double
    /// Seconds of simulated time that have passed for this phone.
    public var advanced: Double

    public init(skew: Double = 0, advanced: Double = 0) {
        self.skew = skew
        self.advanced = advanced
    }

    public func now() -> Timestamp { Timestamp.now() + (skew + advanced) }
}
