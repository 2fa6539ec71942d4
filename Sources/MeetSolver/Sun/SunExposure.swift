import Foundation

/// What the sun has done to a slope's snow, and how much it slows a skier.
enum SnowSurface: Sendable, Equatable {
    case slush, hardPack, softPack, normal

    /// Softened snow (1.05) is not counted as a help: only slow-downs apply.
    var speedFactor: Double {
        switch self {
        case .slush: return 0.75
        case .hardPack: return 0.80
        case .softPack: return 1.05
        case .normal: return 1.0
        }
    }

    /// The surface of a run with `aspect` (degrees, nil when flat or unknown)
    /// under the sun at `position`, at edge temperature `temperature` and
    /// cloud cover `cloudCover` %.
    static func of(aspectDegrees aspect: Double?, aspectVariance: Double, sun position: SolarPosition,
                   cloudCover: Int, temperature: Double) -> SnowSurface {
        of(aspect: aspect.map { (cos($0 * .pi / 180), sin($0 * .pi / 180)) }, aspectVariance: aspectVariance, sun: position,
           cloudCover: cloudCover, temperature: temperature)
    }

    /// The same with the aspect given as its cosine and sine: the cosine of
    /// the angle between sun and slope is then a dot product.
    static func of(aspect: (cos: Double, sin: Double)?, aspectVariance: Double, sun position: SolarPosition,
                   cloudCover: Int, temperature: Double) -> SnowSurface {
        guard position.sinAltitude > 0 else { return .hardPack }
        guard let aspect else { return .normal }
        let facing = position.cosAzimuth * aspect.cos + position.sinAzimuth * aspect.sin
        let exposure = max(0, facing) * position.sinAltitude
            * (1 - 0.7 * aspectVariance) * (1 - 0.7 * Double(cloudCover) / 100)
        if exposure > 0.7 && temperature > -1 { return .slush }
        if exposure < 0.2 && temperature < -3 { return .hardPack }
        if exposure > 0.3 { return .softPack }
        return .normal
    }
}
