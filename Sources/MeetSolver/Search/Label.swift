/// One way of reaching a node: how long it took, how uncertain it is, and
/// how many separate actions (runs, lift rides, connectors) it strings
/// together. Within one action edge uncertainties add up (they move
/// together); finished actions add as independent variances.
struct Label: Sendable {
    /// Mean seconds after the solve time.
    let time: Double
    /// Variance of the finished actions, including the start's GPS variance.
    let done: Double
    /// Standard deviation of the action in progress.
    let current: Double
    let actions: Int32
    let actionKey: Int32
    /// Index of the label this one extends, or -1.
    let predecessor: Int32
    /// The edge taken to get here, or -1 at a node start.
    let via: Int32
    let node: Int32

    init(time: Double, done: Double, current: Double, actions: Int32, actionKey: Int32, predecessor: Int32, via: Int32, node: Int32) {
        self.time = time
        self.done = done
        self.current = current
        self.actions = actions
        self.actionKey = actionKey
        self.predecessor = predecessor
        self.via = via
        self.node = node
    }

    /// `done + current²`. Worked out when read rather than stored: a label
    /// of 48 bytes instead of 64 puts more of them in each cache line the
    /// search waits for, and the sum is the same every time.
    @inline(__always)
    var variance: Double { done + current * current }

    /// Times are compared to the millisecond.
    @inline(__always)
    var roundedTime: Int64 { Milliseconds.rounded(time) }

    /// This label carried one edge further: the same action continues (its
    /// uncertainty adds up) or a new one starts (the finished one's variance
    /// is banked).
    func extended(by cost: EdgeCost, edge: Int32, actionKey key: Int32, to target: Int32, from id: Int32) -> Label {
        if key == actionKey {
            return Label(time: time + cost.time, done: done, current: current + cost.std, actions: actions,
                         actionKey: key, predecessor: id, via: edge, node: target)
        }
        return Label(time: time + cost.time, done: done + current * current, current: cost.std, actions: actions + 1,
                     actionKey: key, predecessor: id, via: edge, node: target)
    }

    /// No worse in every criterion (so `other` adds nothing).
    func isNoWorse(than other: Label) -> Bool {
        roundedTime <= other.roundedTime && variance <= other.variance
            && current <= other.current && actions <= other.actions
    }

    /// Mean plus half a standard deviation: the overflow ranking's first key.
    var cautiousTime: Double { Self.cautious(time: time, variance: variance) }

    /// The same from a mean and a variance held elsewhere (a forest's places).
    @inline(__always)
    static func cautious(time: Double, variance: Double) -> Double { time + 0.5 * variance.squareRoot() }
}
