import Foundation

/// The conditions bucket learned speeds are kept under (spec §3.10).
public enum ConditionsFingerprint {
    /// Used when no authoritative weather is known, as for every file import today.
    public static let `default` = "default"

    public struct Weather: Sendable {
        public var temperature: Double?
        public var wind: Double?
        public var snow24h: Double?
        public var visibility: Double?
        public var cloudCover: Int?

        public init(temperature: Double? = nil, wind: Double? = nil, snow24h: Double? = nil, visibility: Double? = nil, cloudCover: Int? = nil) {
            self.temperature = temperature
            self.wind = wind
            self.snow24h = snow24h
            self.visibility = visibility
            self.cloudCover = cloudCover
        }
    }

    /// `key=value` parts sorted bytewise and joined with `|`; `default` without weather.
    public static func fingerprint(weather: Weather?, hasMoguls: Bool, isGroomed: Bool?, isGladed: Bool) -> String {
        guard let weather else { return Self.default }
        var parts: [String] = []
        if let t = weather.temperature { parts.append("tempC=\(Int((t / 5).rounded(.down) * 5))") }
        if let w = weather.wind { parts.append("wind=\(Int((w / 10).rounded(.down) * 10))") }
        if let s = weather.snow24h { parts.append("snow=\(Int((s / 5).rounded(.up) * 5))") }
        if let v = weather.visibility { parts.append("vis=\(Int((min(v, 15) / 3).rounded(.down) * 3))") }
        if let c = weather.cloudCover { parts.append("cloud=\((c / 25) * 25)") }
        parts.append("moguls=\(hasMoguls ? 1 : 0)")
        parts.append("ungroomed=\(isGroomed == false ? 1 : 0)")
        parts.append("gladed=\(isGladed ? 1 : 0)")
        return parts.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: "|")
    }
}
