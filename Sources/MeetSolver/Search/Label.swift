/// One way of reaching a node: how long it took, how uncertain it is, and
/// how many separate actions (runs, lift rides, connectors) it strings
/// together. Within one action edge uncertainties add up (they move
/// together); finished actions add as independent variances.
struct Label {
    /// Mean seconds after the solve time.
    var time: Double
    /// Variance of the finished actions, including the start's GPS variance.
    var done: Double
    /// Standard deviation of the action in progress.
    var current: Double
    var actions: Int32
    var actionKey: Int32
    /// Index of the label this one extends, or -1.
    var predecessor: Int32
    /// The edge taken to get here, or -1 at a node start.
    var via: Int32
    var node: Int32

    var variance: Double { done + current * current }

    /// Times are compared to the millisecond.
    var roundedTime: Int64 { Int64((time * 1000).rounded()) }

    /// No worse in every criterion (so `other` adds nothing).
    func isNoWorse(than other: Label) -> Bool {
        roundedTime <= other.roundedTime && variance <= other.variance
            && current <= other.current && actions <= other.actions
    }

    /// Mean plus half a standard deviation: the overflow ranking's first key.
    var cautiousTime: Double { time + 0.5 * variance.squareRoot() }
}
