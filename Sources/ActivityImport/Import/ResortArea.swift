import Foundation
import MountainGraph

/// Where a resort lies, for checking that a recording was made there: its
/// catalog box and, when a graph is given, the graph's extent, widened by
/// `margin` so lifts and runs at the edge of the box still count.
public struct ResortArea: Sendable, Equatable {
    public var latMin: Double, lonMin: Double, latMax: Double, lonMax: Double
    /// Metres outside the box a fix may lie and still be at the resort.
    public static let margin = 5_000.0

    public init(latMin: Double, lonMin: Double, latMax: Double, lonMax: Double) {
        self.latMin = latMin; self.lonMin = lonMin; self.latMax = latMax; self.lonMax = lonMax
    }

    /// The box around every node and vertex of a graph; nil for an empty graph.
    public init?(graph: MountainGraph) {
        let lats = graph.nodes.map(\.lat) + graph.edges.flatMap { $0.geometry.map(\.lat) }
        let lons = graph.nodes.map(\.lon) + graph.edges.flatMap { $0.geometry.map(\.lon) }
        guard let latMin = lats.min(), let latMax = lats.max(), let lonMin = lons.min(), let lonMax = lons.max() else { return nil }
        self.init(latMin: latMin, lonMin: lonMin, latMax: latMax, lonMax: lonMax)
    }

    /// The smallest box holding both.
    public func union(_ other: ResortArea) -> ResortArea {
        ResortArea(latMin: min(latMin, other.latMin), lonMin: min(lonMin, other.lonMin),
                   latMax: max(latMax, other.latMax), lonMax: max(lonMax, other.lonMax))
    }

    /// Metres from a position to the box (0 inside it).
    public func distance(lat: Double, lon: Double) -> Double {
        let nearestLat = min(max(lat, latMin), latMax), nearestLon = min(max(lon, lonMin), lonMax)
        return Geo.distance(lat, lon, nearestLat, nearestLon)
    }

    /// Metres from the box to the recording's nearest fix; nil when it has none.
    public func distance(of activity: ParsedActivity) -> Double? {
        var nearest: Double?
        for segment in activity.segments {
            for point in segment {
                let d = distance(lat: point.lat, lon: point.lon)
                if nearest == nil || d < nearest! { nearest = d }
                if d == 0 { return 0 }
            }
        }
        return nearest
    }

    /// Whether the recording lies at the resort: some fix within `margin` of the box.
    public func contains(_ activity: ParsedActivity) -> Bool {
        (distance(of: activity) ?? .infinity) <= Self.margin
    }
}
