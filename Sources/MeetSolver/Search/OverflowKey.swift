/// Where a label stands when a node has more labels than places: its time
/// and cautious time in whole milliseconds, then the tie-breaks, down to
/// the label's own index so the order is total. The first keys come from
/// the node's places; the edge and predecessor are read from the label
/// itself only when everything before them ties (rarely), so choosing the
/// label to drop seldom waits for the scattered labels.
struct OverflowKey {
    var time: Int64
    var cautious: Int64
    var actions: Int32
    var current: Double
    var id: Int32

    @inline(__always)
    init(time: Int64, exactTime: Double, variance: Double, current: Double, actions: Int32, id: Int32) {
        self.time = time
        cautious = Milliseconds.rounded(Label.cautious(time: exactTime, variance: variance))
        self.actions = actions
        self.current = current
        self.id = id
    }

    /// Least time first, then the overflow order: the label that is always kept.
    @inline(__always)
    func isFaster(than other: OverflowKey, _ label: (Int32) -> Label) -> Bool {
        time != other.time ? time < other.time : isOrdered(before: other, label)
    }

    /// Cautious time, actions, current uncertainty, time, edge, predecessor,
    /// index; `label` gives a key's label for the last tie-breaks.
    @inline(__always)
    func isOrdered(before other: OverflowKey, _ label: (Int32) -> Label) -> Bool {
        if cautious != other.cautious { return cautious < other.cautious }
        if actions != other.actions { return actions < other.actions }
        if current != other.current { return current < other.current }
        if time != other.time { return time < other.time }
        let x = label(id), y = label(other.id)
        if x.via != y.via { return x.via < y.via }
        if x.predecessor != y.predecessor { return x.predecessor < y.predecessor }
        return id < other.id
    }
}
