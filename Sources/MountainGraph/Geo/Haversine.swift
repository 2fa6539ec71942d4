import Foundation

/// Great-circle distance with the single Earth radius used everywhere.
public enum Haversine {
    public static let earthRadius = 6_371_000.0

    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (b.lat - a.lat) * toRadians
        let dLon = (b.lon - a.lon) * toRadians
        let s = sin(dLat / 2) * sin(dLat / 2)
            + cos(a.lat * toRadians) * cos(b.lat * toRadians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, sqrt(s)))
    }
}
