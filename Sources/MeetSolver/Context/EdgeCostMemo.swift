/// One search's memory of run and connector costs: per edge (by its
/// position in the graph's outgoing rows), the last cost
/// and the weather and snow surface it was worked out under. Weathers are
/// numbered as the search meets them (a forecast gives only a few rounded
/// weathers over a solve), so an entry holds a number, not a whole weather.
///
/// A memo is reused from search to search without clearing its entries:
/// each search numbers its weathers after the last one's, so an entry left
/// from an earlier search never matches.
struct EdgeCostMemo: Sendable {
    private struct Entry: Sendable {
        var weather: Int32
        var surface: Int8
        var cost: EdgeCost?

        static let unknown = Entry(weather: -1, surface: 0, cost: nil)
    }

    private var entries: [Entry]
    /// This search's weathers; the number of `weathers[i]` is `firstKey + i`.
    private var weathers: [QuantizedWeather] = []
    private var firstKey: Int32 = 0
    private var lastWeather: Int32 = -1

    init(edgeCount: Int) {
        entries = Array(repeating: .unknown, count: edgeCount)
    }

    /// Forgets every cost for a search on a graph of `edgeCount` edges: the
    /// next weathers get numbers no entry holds. Entries are cleared only
    /// for a different graph size or when the numbers run out.
    mutating func reset(edgeCount: Int) {
        let nextKey = Int64(firstKey) + Int64(weathers.count)
        if entries.count != edgeCount || nextKey > Int64(Int32.max) - 1 << 20 {
            self = EdgeCostMemo(edgeCount: edgeCount)
            return
        }
        firstKey = Int32(nextKey)
        weathers.removeAll(keepingCapacity: true)
        lastWeather = -1
    }

    /// The number of `weather` in this search; the same weather always gets the same number.
    mutating func key(for weather: QuantizedWeather) -> Int32 {
        if lastWeather >= 0 && weathers[Int(lastWeather)] == weather { return firstKey + lastWeather }
        let position = weathers.firstIndex(of: weather).map(Int32.init) ?? {
            weathers.append(weather)
            return Int32(weathers.count - 1)
        }()
        lastWeather = position
        return firstKey + position
    }

    /// The remembered cost (`.some(nil)`: known to be untraversable), or nil when not known.
    @inline(__always)
    func cost(_ index: Int, _ weather: Int32, _ surface: SnowSurface?) -> EdgeCost?? {
        let entry = entries[index]
        guard entry.weather == weather, entry.surface == surface.code else { return nil }
        return .some(entry.cost)
    }

    mutating func remember(_ cost: EdgeCost?, _ index: Int, _ weather: Int32, _ surface: SnowSurface?) {
        entries[index] = Entry(weather: weather, surface: surface.code, cost: cost)
    }
}

private extension Optional where Wrapped == SnowSurface {
    /// A small number per surface, -1 without sun.
    var code: Int8 {
        switch self {
        case nil: return -1
        case .slush?: return 0
        case .hardPack?: return 1
        case .softPack?: return 2
        case .normal?: return 3
        }
    }
}
