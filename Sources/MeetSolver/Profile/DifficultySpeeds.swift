import MountainGraph

/// A skier's cruising speed (m/s) per run difficulty; nil where they have none.
public struct DifficultySpeeds: Sendable, Equatable, Codable {
    public var green: Double?
    public var blue: Double?
    public var black: Double?
    public var doubleBlack: Double?
    public var terrainPark: Double?

    public init(green: Double? = nil, blue: Double? = nil, black: Double? = nil,
                doubleBlack: Double? = nil, terrainPark: Double? = nil) {
        self.green = green
        self.blue = blue
        self.black = black
        self.doubleBlack = doubleBlack
        self.terrainPark = terrainPark
    }

    public subscript(difficulty: RunDifficulty) -> Double? {
        switch difficulty {
        case .green: return green
        case .blue: return blue
        case .black: return black
        case .doubleBlack: return doubleBlack
        case .terrainPark: return terrainPark
        }
    }

    /// In difficulty order, for fingerprints.
    var inOrder: [Double?] { [green, blue, black, doubleBlack, terrainPark] }
}
