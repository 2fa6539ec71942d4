/// Where a label stands when a node has more labels than places: its time
/// and cautious time in whole milliseconds, then the tie-breaks, down to
/// the label's own index so the order is total.
struct OverflowKey {
    var time: Int64
    var cautious: Int64
    var actions: Int32
    var current: Double
    var via: Int32
    var predecessor: Int32
    var id: Int32

    @inline(__always)
    init(_ label: Label, id: Int32) {
        time = label.roundedTime
        cautious = Int64((label.cautiousTime * 1000).rounded())
        actions = label.actions
        current = label.current
        via = label.via
        predecessor = label.predecessor
        self.id = id
    }

    /// Least time first, then the overflow order: the label that is always kept.
    @inline(__always)
    func isFaster(than other: OverflowKey) -> Bool {
        time != other.time ? time < other.time : isOrdered(before: other)
    }

    /// Cautious time, actions, current uncertainty, time, edge, predecessor, index.
    @inline(__always)
    func isOrdered(before other: OverflowKey) -> Bool {
        if cautious != other.cautious { return cautious < other.cautious }
        if actions != other.actions { return actions < other.actions }
        if current != other.current { return current < other.current }
        if time != other.time { return time < other.time }
        if via != other.via { return via < other.via }
        if predecessor != other.predecessor { return predecessor < other.predecessor }
        return id < other.id
    }
}
