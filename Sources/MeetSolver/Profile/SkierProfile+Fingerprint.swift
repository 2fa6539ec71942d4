import Foundation

extension SkierProfile {
    /// Every field that changes a traversal time, in one line; part of the
    /// solver cache key, so two profiles that route differently never share
    /// a cached solution.
    public var fingerprint: String {
        func speed(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "-" }
        func optional(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        let speeds = self.speeds.inOrder.map(speed).joined(separator: ",")
        return "\(skillLevel?.rawValue ?? "unknown") spd=[\(speeds)]"
            + String(format: " m=%.2f u=%.2f i=%.2f g=%.2f", conditionMoguls, conditionUngroomed, conditionIcy, conditionGladed)
            + " gCap=\(optional(maxComfortableGradientDegrees)) mT=\(optional(mogulTolerance))"
            + " nT=\(optional(narrowTrailTolerance)) eT=\(optional(exposureTolerance)) cT=\(optional(crustConditionTolerance))"
    }
}
