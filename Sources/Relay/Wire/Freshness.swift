import Foundation

/// How current a friend's position is, marked on every delivered packet (spec §7.4).
public struct Freshness: Sendable, Equatable, Codable {
    /// The display class.
    public enum Display: String, Sendable, Codable {
        /// Captured under 75 s ago.
        case live
        /// Up to 5 minutes old.
        case stale
        /// Older: the skier has gone quiet (offline), shown with its age.
        case cold
    }

    public var display: Display
    /// Only a routing-grade fix may start or change a route, train history, record
    /// a run, auto-select a resort or drive navigation: under 75 s old, no more than
    /// 10 s in the future, accuracy known and at most 50 m, and sent for the resort
    /// the receiver has selected.
    public var routingGrade: Bool
    /// Seconds since capture on the relay's clock (negative: captured "in the future").
    public var ageSeconds: Double

    public static let routingGradeAge: Double = 75
    public static let maximumFutureSkew: Double = 10
    public static let routingGradeAccuracy: Double = 50
    public static let staleAge: Double = 300
    /// Older positions are not shown at all.
    public static let hiddenAge: Double = 3 * 3600

    public init(display: Display, routingGrade: Bool, ageSeconds: Double) {
        self.display = display
        self.routingGrade = routingGrade
        self.ageSeconds = ageSeconds
    }

    /// The class of `packet` at `now` for a receiver on `selectedResort`; nil when it is too old to show.
    public static func of(_ packet: PositionPacket, selectedResort: String, now: Date) -> Freshness? {
        let age = now.timeIntervalSince1970 - Double(packet.capturedMicros) / 1_000_000
        guard age <= hiddenAge else { return nil }
        let display: Display = age < routingGradeAge ? .live : age <= staleAge ? .stale : .cold
        let routingGrade = age < routingGradeAge && age >= -maximumFutureSkew
            && (packet.accuracy.map { $0 <= routingGradeAccuracy } ?? false)
            && packet.resortID == selectedResort
        return Freshness(display: display, routingGrade: routingGrade, ageSeconds: age)
    }
}
