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

    /// A clock held still at this instant (simulations that need two phones to stamp the same microsecond).
    public var stoppedAt: Timestamp?

    public init(skew: Double = 0, advanced: Double = 0, stoppedAt: Timestamp? = nil) {
        self.skew = skew
        self.advanced = advanced
        self.stoppedAt = stoppedAt
    }

    public func now() -> Timestamp { (stoppedAt ?? Timestamp.now()) + (skew + advanced) }
}
