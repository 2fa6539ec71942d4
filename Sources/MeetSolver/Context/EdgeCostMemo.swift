/// One search's memory of run and connector costs: per edge, the last cost
/// and the rounded weather and snow surface it was worked out under.
struct EdgeCostMemo {
    private struct Entry {
        var weather: QuantizedWeather
        var surface: SnowSurface?
        var cost: EdgeCost?
    }

    private var entries: [Entry?]

    init(edgeCount: Int) {
        entries = Array(repeating: nil, count: edgeCount)
    }

    /// The remembered cost (`.some(nil)`: known to be untraversable), or nil when not known.
    func cost(_ index: Int, _ weather: QuantizedWeather, _ surface: SnowSurface?) -> EdgeCost?? {
        guard index < entries.count, let entry = entries[index], entry.surface == surface, entry.weather == weather else { return nil }
        return .some(entry.cost)
    }

    mutating func remember(_ cost: EdgeCost?, _ index: Int, _ weather: QuantizedWeather, _ surface: SnowSurface?) {
        guard index < entries.count else { return }
        entries[index] = Entry(weather: weather, surface: surface, cost: cost)
    }
}
