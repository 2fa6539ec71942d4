import Foundation

/// Geometric attributes of one directed piece, from its oriented vertices.
struct EdgeGeometry {
    var length: Double
    var verticalDrop: Double
    var averageGradient: Double
    var maxGradient: Double
    var aspect: Double?
    var aspectVariance: Double
    var midpointElevation: Double

    /// Gradients are capped here: 60° is steeper than any skiable slope and
    /// larger values only come from DEM noise on very short pieces.
    static let gradientCap = 60.0
    /// Pairs closer than this are too short for a meaningful local gradient.
    static let minimumGradientRun = 5.0
    /// Two distinct vertices at identical coordinates still make a routable
    /// piece; it gets this nominal length instead of zero.
    static let minimumLength = 0.001

    init(kind: EdgeKind, coordinates: [Coordinate], elevations: [Double]) {
        let first = elevations[0]
        let last = elevations[elevations.count - 1]
        var total = 0.0
        var steepest: Double?
        var minimum = first
        var maximum = first
        Geo.forEachSegmentLength(coordinates) { i, distance in
            total += distance
            minimum = min(minimum, elevations[i])
            maximum = max(maximum, elevations[i])
            if distance > Self.minimumGradientRun {
                let gradient = Self.degrees(atan(abs(elevations[i] - elevations[i - 1]) / distance))
                steepest = max(steepest ?? 0, gradient)
            }
        }
        length = max(Quantize.metres(total), Self.minimumLength)
        midpointElevation = Quantize.elevation((first + last) / 2)

        switch kind {
        case .run:
            verticalDrop = max(abs(first - last), maximum - minimum)
            averageGradient = min(Self.degrees(atan(abs(first - last) / length)), Self.gradientCap)
            // With no pair long enough, the piece's average is its best estimate.
            maxGradient = min(steepest ?? averageGradient, Self.gradientCap)
            let (aspect, variance) = Self.aspect(coordinates)
            self.aspect = aspect
            aspectVariance = variance
        case .lift:
            verticalDrop = max(abs(first - last), maximum - minimum)
            averageGradient = min(Self.degrees(atan(verticalDrop / length)), Self.gradientCap)
            maxGradient = averageGradient
            aspect = nil
            aspectVariance = 0
        case .traverse:
            verticalDrop = max(0, last - first)
            averageGradient = 0
            maxGradient = 0
            aspect = nil
            aspectVariance = 0
        }
        verticalDrop = Quantize.metres(verticalDrop)
        averageGradient = Quantize.degrees(averageGradient)
        maxGradient = Quantize.degrees(maxGradient)
    }

    /// Length-weighted circular mean of segment bearings on the downhill
    /// geometry, in flat degree space (no cos-latitude factor, matching the
    /// reference builder), and its spread 1 − R.
    static func aspect(_ coordinates: [Coordinate]) -> (Double, Double) {
        var s = 0.0
        var c = 0.0
        var w = 0.0
        for i in 1..<coordinates.count {
            let dLat = coordinates[i].lat - coordinates[i - 1].lat
            let dLon = coordinates[i].lon - coordinates[i - 1].lon
            let length = sqrt(dLat * dLat + dLon * dLon) * 111_000
            if length <= 1 { continue }
            var bearing = degrees(atan2(dLon, dLat))
            if bearing < 0 { bearing += 360 }
            s += sin(bearing * .pi / 180) * length
            c += cos(bearing * .pi / 180) * length
            w += length
        }
        guard w > 0 else { return (0, 0) }
        s /= w
        c /= w
        var aspect = degrees(atan2(s, c))
        if aspect < 0 { aspect += 360 }
        aspect = Quantize.degrees(aspect)
        if aspect >= 360 { aspect = 0 }
        let r = sqrt(s * s + c * c)
        return (aspect, Quantize.degrees(min(1, max(0, 1 - r))))
    }

    @inline(__always) static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
