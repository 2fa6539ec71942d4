extension BuildRun {
    /// Lifts without an identity still form one directed chain per way and
    /// direction, so each direction charges exactly one boarding queue. Also
    /// spreads an OSM `aerialway:duration` over every lift way's pieces.
    mutating func chainUnclaimedLifts() {
        for (index, way) in ways.enumerated() where way.kind == .lift {
            let primary = edgesOfWay[index].filter { !edges[$0].isReverseTwin }
            let twins = edgesOfWay[index].filter { edges[$0].isReverseTwin }
            let claimedIdentity = claimedBy[index].map { identities[$0] }
            let officialRide = claimedIdentity?.lift?.rideTimeS != nil
            for chain in [primary, twins] where !chain.isEmpty {
                if !officialRide, let duration = durationSeconds(way.tags["aerialway:duration"]) {
                    let values = Self.allocate(duration, weights: chain.map { edges[$0].geometricLength }, minimum: 0.001)
                    for (edge, value) in zip(chain, values) { edges[edge].edge.attributes.rideTimeSeconds = value }
                }
                if claimedIdentity == nil {
                    for (position, edge) in chain.enumerated() {
                        edges[edge].edge.attributes.chainIndex = position
                        edges[edge].edge.attributes.queueEntry = position == 0
                    }
                }
            }
        }
    }

    /// `aerialway:duration` in seconds: minutes ("6", "5.5"), "mm:ss" or
    /// "hh:mm:ss". Values outside (0, 2 h] are ignored as mistagged.
    func durationSeconds(_ tag: String?) -> Double? {
        guard let tag = tag?.trimmingPrefixWhitespace().trimmingSuffixWhitespace(), !tag.isEmpty else { return nil }
        let parts = tag.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
        guard !parts.contains(where: { $0 == nil }) else { return nil }
        let numbers = parts.map { $0! }
        let seconds: Double
        switch numbers.count {
        case 1: seconds = numbers[0] * 60
        case 2: seconds = numbers[0] * 60 + numbers[1]
        case 3: seconds = numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
        default: return nil
        }
        guard seconds.isFinite, seconds > 0, seconds <= 7200 else { return nil }
        return seconds
    }
}
