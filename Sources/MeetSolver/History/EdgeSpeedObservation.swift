/// One row of a skier's learned per-edge speed (`activity.profile_edge_speeds`).
public struct EdgeSpeedObservation: Sendable, Equatable, Codable {
    public var edgeID: String
    public var conditionsFingerprint: String
    public var equipmentKey: String
    public var observationCount: Int
    /// Rolling mean speed, m/s.
    public var speed: Double
    /// Rolling speed variance, (m/s)².
    public var speedVariance: Double
    public var peakSpeed: Double?
    public var durationSeconds: Double?
    /// Unix seconds of the newest observation.
    public var lastObservedAt: Double

    public init(edgeID: String, conditionsFingerprint: String = "default", equipmentKey: String = "none",
                observationCount: Int, speed: Double, speedVariance: Double = 0,
                peakSpeed: Double? = nil, durationSeconds: Double? = nil, lastObservedAt: Double = 0) {
        self.edgeID = edgeID
        self.conditionsFingerprint = conditionsFingerprint
        self.equipmentKey = equipmentKey
        self.observationCount = observationCount
        self.speed = speed
        self.speedVariance = speedVariance
        self.peakSpeed = peakSpeed
        self.durationSeconds = durationSeconds
        self.lastObservedAt = lastObservedAt
    }

    /// A learned speed is trusted from three observations on.
    public static let trustedCount = 3

    var isTrusted: Bool { observationCount >= Self.trustedCount && speed > 0 }

    /// Every field, in a fixed order, for the history digest.
    var canonicalLine: String {
        func text(_ value: Double?) -> String { value.map { "\($0)" } ?? "-" }
        return [edgeID, conditionsFingerprint, equipmentKey, "\(observationCount)", "\(speed)", "\(speedVariance)",
                text(peakSpeed), text(durationSeconds), "\(lastObservedAt)"].joined(separator: "\u{1F}")
    }
}
