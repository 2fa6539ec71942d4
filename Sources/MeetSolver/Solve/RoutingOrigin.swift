/// Where a skier's route begins: at a node, partway along a directed edge
/// (only the remainder is charged), or at a GPS fix still to be resolved
/// onto the nearest open edge.
public enum RoutingOrigin: Sendable, Equatable, Hashable, Codable {
    case node(String)
    case edge(String, fraction: Double)
    case fix(GPSFix)

    /// Edge fractions are kept in hundredths, rounded down: the skier is
    /// never placed further along than they are.
    public static func quantize(_ fraction: Double) -> Double {
        (max(0, min(1, fraction)) * 100 + 1e-9).rounded(.down) / 100
    }

    /// The form the cache key and a stored request carry.
    public var descriptor: String {
        switch self {
        case let .node(id): return "node:\(id)"
        case let .edge(id, fraction): return "edge:\(id)@\(Self.quantize(fraction))"
        case let .fix(fix): return "fix:\(fix.lat),\(fix.lon)±\(fix.accuracyMeters ?? -1)@\(fix.capturedAt)/\(fix.resortID)"
        }
    }
}

/// A GPS sample as the sender stamped it.
public struct GPSFix: Sendable, Equatable, Hashable, Codable {
    public var lat: Double
    public var lon: Double
    public var accuracyMeters: Double?
    /// Unix seconds of the sample's capture, by the sender's clock.
    public var capturedAt: Double
    /// The sender's selected canonical resort.
    public var resortID: String

    public init(lat: Double, lon: Double, accuracyMeters: Double?, capturedAt: Double, resortID: String) {
        self.lat = lat
        self.lon = lon
        self.accuracyMeters = accuracyMeters
        self.capturedAt = capturedAt
        self.resortID = resortID
    }

    /// Only a fresh, plausible, accurate fix at the same resort may start a route.
    public static let maximumAge = 75.0
    public static let maximumFutureSkew = 10.0
    public static let maximumAccuracy = 50.0

    /// Why this fix may not start a route now, or nil when it is routing-grade.
    public func routingGradeProblem(now: Double, resortID expected: String) -> String? {
        if resortID != expected { return "the fix is stamped for resort \(resortID), not \(expected)" }
        if capturedAt > now + Self.maximumFutureSkew {
            return "the fix is \(Int((capturedAt - now).rounded())) s in the future (device clock?)"
        }
        if now - capturedAt >= Self.maximumAge { return "the fix is \(Int((now - capturedAt).rounded())) s old (routing needs under \(Int(Self.maximumAge)) s)" }
        if let accuracy = accuracyMeters, accuracy > Self.maximumAccuracy {
            return "the fix is accurate to \(Int(accuracy.rounded())) m (routing needs \(Int(Self.maximumAccuracy)) m or better)"
        }
        return nil
    }
}

/// One skier of a meet: who they are and where they start. `accuracyMeters`
/// (of the GPS behind the start) widens the route's uncertainty.
public struct SkierStart: Sendable, Equatable, Hashable, Codable {
    public var skierID: String
    public var origin: RoutingOrigin
    public var accuracyMeters: Double?

    public init(skierID: String, origin: RoutingOrigin, accuracyMeters: Double? = nil) {
        self.skierID = skierID
        self.origin = origin
        self.accuracyMeters = accuracyMeters
    }
}
