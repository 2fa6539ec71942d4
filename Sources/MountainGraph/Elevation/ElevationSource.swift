/// Anything that can give a ground elevation (metres) for a coordinate.
public protocol ElevationSource: Sendable {
    /// The elevation at `coordinate`, or nil where the source has no data.
    func elevation(at coordinate: Coordinate) -> Double?
}

/// Several sources tried in order; the first with data wins.
public struct LayeredElevation: ElevationSource {
    public let layers: [any ElevationSource]

    public init(_ layers: [any ElevationSource]) { self.layers = layers }

    public func elevation(at coordinate: Coordinate) -> Double? {
        for layer in layers {
            if let value = layer.elevation(at: coordinate) { return value }
        }
        return nil
    }
}
