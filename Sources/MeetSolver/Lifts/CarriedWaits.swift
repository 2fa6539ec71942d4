/// A queue's wait just before each local midnight a solve can reach, worked
/// out once when the queue is built: that wait is held up after midnight
/// (the FIFO fall limit), and it depends only on the day, so no lift cost
/// has to work it out again. Four days inline, from the solve's own day
/// (labels never go back in time); later days are worked out when asked.
struct CarriedWaits: Sendable {
    static let dayCount = 4

    let firstDay: Int
    private let waits: (Double, Double, Double, Double)

    /// No days known: every lookup misses.
    static let none = CarriedWaits(firstDay: .min, waits: (0, 0, 0, 0))

    private init(firstDay: Int, waits: (Double, Double, Double, Double)) {
        self.firstDay = firstDay
        self.waits = waits
    }

    init(firstDay: Int, _ wait: (Int) -> Double) {
        self.init(firstDay: firstDay, waits: (wait(firstDay), wait(firstDay + 1), wait(firstDay + 2), wait(firstDay + 3)))
    }

    /// The wait carried into `day`, or nil when that day was not worked out.
    @inline(__always)
    func wait(into day: Int) -> Double? {
        guard firstDay != .min else { return nil }
        switch day &- firstDay {
        case 0: return waits.0
        case 1: return waits.1
        case 2: return waits.2
        case 3: return waits.3
        default: return nil
        }
    }
}
