/// Run difficulty; the raw value is the sort order used by ability gates and
/// the fingerprint.
public enum RunDifficulty: Int, Sendable, CaseIterable, Comparable {
    case green = 0, blue = 1, black = 2, doubleBlack = 3, terrainPark = 4

    public var wireName: String {
        switch self {
        case .green: return "green"
        case .blue: return "blue"
        case .black: return "black"
        case .doubleBlack: return "doubleBlack"
        case .terrainPark: return "terrainPark"
        }
    }

    public init?(wireName: String) {
        guard let match = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = match
    }

    /// OSM `piste:difficulty` → difficulty. `terrainPark` is only ever set by a
    /// canonical row; unknown values give nil.
    public init?(osm value: String) {
        switch value {
        case "novice", "easy": self = .green
        case "intermediate": self = .blue
        case "advanced": self = .black
        case "expert", "freeride", "extreme": self = .doubleBlack
        default: return nil
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
