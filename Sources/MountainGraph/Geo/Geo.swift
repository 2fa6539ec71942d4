import Foundation

/// Spherical geometry with the one Earth radius the spec uses (6 371 000 m).
public enum Geo {
    public static let earthRadius = 6_371_000.0
    static let radians = Double.pi / 180

    /// Haversine distance in metres.
    @inline(__always)
    public static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let s = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, s.squareRoot()))
    }

    /// Haversine distance in metres along a polyline, segment by segment:
    /// `body(i, metres)` for the segment ending at point `i`. Each point's
    /// cosine is worked out once, not once per segment end; the figures are
    /// the same as `distance(_:_:)`'s to the last bit.
    @inline(__always)
    static func forEachSegmentLength(_ points: [Coordinate], _ body: (Int, Double) -> Void) {
        guard points.count > 1 else { return }
        var previousCos = cos(points[0].lat * radians)
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            let dLat = (b.lat - a.lat) * radians
            let dLon = (b.lon - a.lon) * radians
            let currentCos = cos(b.lat * radians)
            let s = sin(dLat / 2) * sin(dLat / 2) + previousCos * currentCos * sin(dLon / 2) * sin(dLon / 2)
            body(i, 2 * earthRadius * asin(min(1, s.squareRoot())))
            previousCos = currentCos
        }
    }

    /// Haversine distance in metres between two coordinates.
    @inline(__always)
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        distance(a.lat, a.lon, b.lat, b.lon)
    }

    /// Initial bearing from the first point to the second, degrees in [0, 360).
    public static func bearing(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let phi1 = lat1 * radians
        let phi2 = lat2 * radians
        let dLon = (lon2 - lon1) * radians
        let y = sin(dLon) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLon)
        let degrees = atan2(y, x) / radians
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Smallest angle between two bearings, 0…180.
    public static func angleBetween(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return d > 180 ? 360 - d : d
    }
}

/// A local flat projection (metres east/north of an origin): accurate to well
/// under a metre across one resort, and cheap enough to use per fix.
public struct LocalProjection: Sendable {
    public let originLat: Double
    public let originLon: Double
    let metresPerDegreeLat: Double
    let metresPerDegreeLon: Double

    public init(originLat: Double, originLon: Double) {
        self.originLat = originLat
        self.originLon = originLon
        metresPerDegreeLat = Geo.earthRadius * Geo.radians
        metresPerDegreeLon = Geo.earthRadius * Geo.radians * cos(originLat * Geo.radians)
    }

    public func project(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
        ((lon - originLon) * metresPerDegreeLon, (lat - originLat) * metresPerDegreeLat)
    }

    public func unproject(x: Double, y: Double) -> (lat: Double, lon: Double) {
        (originLat + y / metresPerDegreeLat, originLon + x / metresPerDegreeLon)
    }
}
