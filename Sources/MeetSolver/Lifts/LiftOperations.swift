/// Reviewed operating facts of one lift identity (`canonical_lift` columns):
/// resort-local decimal hours and typical queue waits in minutes.
public struct LiftOperation: Sendable, Equatable, Codable {
    public var openHour: Double?
    public var closeHour: Double?
    public var nightCloseHour: Double?
    public var weekdayWaitMinutes: Double?
    public var weekendWaitMinutes: Double?

    public init(openHour: Double? = nil, closeHour: Double? = nil, nightCloseHour: Double? = nil,
                weekdayWaitMinutes: Double? = nil, weekendWaitMinutes: Double? = nil) {
        self.openHour = openHour
        self.closeHour = closeHour
        self.nightCloseHour = nightCloseHour
        self.weekdayWaitMinutes = weekdayWaitMinutes
        self.weekendWaitMinutes = weekendWaitMinutes
    }

    /// Without reviewed hours a lift is assumed to run 07:00–21:00 local.
    static let safeOpenHour = 7.0
    static let safeCloseHour = 21.0

    /// The window a lift may be boarded in: a missing bound takes the safe window's.
    var boardingWindow: (open: Double, close: Double) {
        (openHour ?? Self.safeOpenHour, nightCloseHour ?? closeHour ?? Self.safeCloseHour)
    }

    /// The reviewed wait for the day type, falling back to the other day type's.
    func reviewedWaitMinutes(weekend: Bool) -> Double? {
        weekend ? (weekendWaitMinutes ?? weekdayWaitMinutes) : (weekdayWaitMinutes ?? weekendWaitMinutes)
    }
}

/// The reviewed operating facts of a dataset's lifts, by identity key
/// (`lift:<name>`). Lifts without an entry use the safe window and the
/// queue heuristic by lift type.
public struct LiftOperations: Sendable, Equatable {
    public private(set) var byIdentityKey: [String: LiftOperation]

    public init(_ byIdentityKey: [String: LiftOperation] = [:]) {
        self.byIdentityKey = byIdentityKey
    }

    public static let none = LiftOperations()

    /// Every entry in key order, for signatures.
    var signatureSource: String {
        byIdentityKey.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
            let o = byIdentityKey[key]!
            func text(_ v: Double?) -> String { v.map { "\($0)" } ?? "-" }
            return "\(key)=\(text(o.openHour)),\(text(o.closeHour)),\(text(o.nightCloseHour)),\(text(o.weekdayWaitMinutes)),\(text(o.weekendWaitMinutes))"
        }.joined(separator: ";")
    }
}
