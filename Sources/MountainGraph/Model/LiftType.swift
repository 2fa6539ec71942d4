/// Aerialway type, in OSM spelling on the wire.
public enum LiftType: String, Sendable, CaseIterable {
    case chairLift = "chair_lift"
    case gondola
    case cableCar = "cable_car"
    case mixedLift = "mixed_lift"
    case dragLift = "drag_lift"
    case tBar = "t-bar"
    case jBar = "j-bar"
    case platter
    case ropeTow = "rope_tow"
    case magicCarpet = "magic_carpet"
    case funicular
    case unknown

    /// Accepts the OSM spelling and the camel spellings used by canonical rows
    /// and the TypeScript port; anything else is `unknown`.
    public init(tag value: String) {
        if let exact = LiftType(rawValue: value) { self = exact; return }
        switch value {
        case "chairlift", "chairLift": self = .chairLift
        case "tBar", "tbar": self = .tBar
        case "jBar": self = .jBar
        case "magicCarpet": self = .magicCarpet
        case "cableCar": self = .cableCar
        case "rope", "ropeTow": self = .ropeTow
        case "dragLift": self = .dragLift
        case "mixedLift": self = .mixedLift
        default: self = .unknown
        }
    }

    /// `aerialway` values that are never lift lines.
    static let nonRoutableAerialways: Set<String> = ["station", "pylon", "zip_line", "goods"]

    /// Typical line speed (m/s) for a ride-time estimate when neither a
    /// canonical row nor OSM gives one.
    var estimatedSpeed: Double {
        switch self {
        case .cableCar, .funicular: return 8.0
        case .gondola: return 5.0
        case .chairLift: return 2.5
        case .tBar, .jBar: return 3.0
        case .platter: return 2.5
        case .dragLift, .ropeTow: return 2.0
        case .magicCarpet: return 1.0
        case .mixedLift, .unknown: return 3.0
        }
    }
}
