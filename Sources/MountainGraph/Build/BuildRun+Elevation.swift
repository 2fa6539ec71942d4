extension BuildRun {
    /// Fills vertices without a known elevation by linear interpolation along
    /// each way (ways in id order; a vertex keeps the first value it gets).
    /// Ways with no elevation at all fail the build or, by policy, stay flat.
    mutating func assignElevations() {
        var known = vertices.hasElevation
        var pending: [Int] = []
        for (index, way) in ways.enumerated() {
            if !interpolate(way, known: &known) { pending.append(index) }
        }
        // A way with no elevation of its own may touch vertices that an earlier
        // pass filled from a neighbour; try once more with those.
        let withoutElevation = pending.filter { !interpolate(ways[$0], known: &known) }
        for index in withoutElevation {
            let way = ways[index]
            switch options.missingElevation {
            case .fail:
                failures.append(BuildFailure(
                    code: .missingElevation, wayIDs: [way.id],
                    message: "way \(way.id) (\(way.kind.rawValue)) has no elevation at any vertex: supply an SRTM tile or elevation map covering it"))
            case .assumeFlat:
                flatWays += 1
            }
        }
        // Centimetres: bilinear DEM samples carry no more precision than that.
        for index in vertices.elevation.indices {
            vertices.elevation[index] = Quantize.elevation(vertices.elevation[index])
        }
    }

    /// Returns false when no vertex of the way has an elevation yet.
    private mutating func interpolate(_ way: RoutableWay, known: inout [Bool]) -> Bool {
        let indices = way.vertices.map { vertices.index[$0]! }
        let knownPositions = indices.indices.filter { known[indices[$0]] }
        guard let firstKnown = knownPositions.first, let lastKnown = knownPositions.last else { return false }
        if knownPositions.count == indices.count { return true }
        var previousKnown = firstKnown
        var nextKnownCursor = 0
        for position in indices.indices where !known[indices[position]] {
            let value: Double
            if position < firstKnown {
                value = vertices.elevation[indices[firstKnown]]
            } else if position > lastKnown {
                value = vertices.elevation[indices[lastKnown]]
            } else {
                while knownPositions[nextKnownCursor] < position { nextKnownCursor += 1 }
                let next = knownPositions[nextKnownCursor]
                previousKnown = knownPositions[nextKnownCursor - 1]
                let a = vertices.elevation[indices[previousKnown]]
                let b = vertices.elevation[indices[next]]
                let fraction = Double(position - previousKnown) / Double(next - previousKnown)
                value = a + (b - a) * fraction
            }
            vertices.elevation[indices[position]] = value
            known[indices[position]] = true
        }
        return true
    }
}
