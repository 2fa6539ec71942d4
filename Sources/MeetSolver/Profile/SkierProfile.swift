import MountainGraph

/// How one skier moves: ability gates, per-difficulty speeds, how well they
/// handle moguls, ungroomed snow, ice and glades (0 = not at all, 1 = at
/// ease), optional tolerances, and equipment.
public struct SkierProfile: Sendable, Equatable, Codable {
    public var skillLevel: SkillLevel?
    public var speeds: DifficultySpeeds
    public var conditionMoguls: Double
    public var conditionUngroomed: Double
    public var conditionIcy: Double
    public var conditionGladed: Double
    public var maxComfortableGradientDegrees: Double?
    public var mogulTolerance: Double?
    public var narrowTrailTolerance: Double?
    public var exposureTolerance: Double?
    public var crustConditionTolerance: Double?
    public var equipment: Equipment

    public init(skillLevel: SkillLevel?, speeds: DifficultySpeeds,
                conditionMoguls: Double, conditionUngroomed: Double, conditionIcy: Double, conditionGladed: Double,
                maxComfortableGradientDegrees: Double? = nil, mogulTolerance: Double? = nil,
                narrowTrailTolerance: Double? = nil, exposureTolerance: Double? = nil,
                crustConditionTolerance: Double? = nil, equipment: Equipment = .none) {
        self.skillLevel = skillLevel
        self.speeds = speeds
        self.conditionMoguls = conditionMoguls
        self.conditionUngroomed = conditionUngroomed
        self.conditionIcy = conditionIcy
        self.conditionGladed = conditionGladed
        self.maxComfortableGradientDegrees = maxComfortableGradientDegrees
        self.mogulTolerance = mogulTolerance
        self.narrowTrailTolerance = narrowTrailTolerance
        self.exposureTolerance = exposureTolerance
        self.crustConditionTolerance = crustConditionTolerance
        self.equipment = equipment
    }

    /// The app's presets per level; an unknown level gets the intermediate preset
    /// with the unknown level's gates.
    public static func preset(_ level: SkillLevel?, equipment: Equipment = .none) -> SkierProfile {
        switch level {
        case .beginner:
            return SkierProfile(skillLevel: level, speeds: DifficultySpeeds(green: 4.0, blue: 2.0),
                                conditionMoguls: 0.2, conditionUngroomed: 0.3, conditionIcy: 0.3, conditionGladed: 0.0,
                                equipment: equipment)
        case .intermediate, nil:
            return SkierProfile(skillLevel: level, speeds: DifficultySpeeds(green: 7.0, blue: 5.0, black: 3.0, terrainPark: 4.0),
                                conditionMoguls: 0.5, conditionUngroomed: 0.6, conditionIcy: 0.5, conditionGladed: 0.4,
                                equipment: equipment)
        case .advanced:
            return SkierProfile(skillLevel: level, speeds: DifficultySpeeds(green: 10.0, blue: 8.0, black: 6.0, doubleBlack: 4.0, terrainPark: 6.0),
                                conditionMoguls: 0.8, conditionUngroomed: 0.8, conditionIcy: 0.7, conditionGladed: 0.7,
                                equipment: equipment)
        case .expert:
            return SkierProfile(skillLevel: level, speeds: DifficultySpeeds(green: 12.0, blue: 10.0, black: 9.0, doubleBlack: 7.0, terrainPark: 8.0),
                                conditionMoguls: 1.0, conditionUngroomed: 1.0, conditionIcy: 0.85, conditionGladed: 0.9,
                                equipment: equipment)
        }
    }

    /// The hardest difficulty a strict solve sends this skier down.
    public var maxRoutableDifficulty: RunDifficulty { SkillLevel.maxRoutableDifficulty(skillLevel) }

    /// Whether ability gates let this skier onto a run (difficulty unknown counts as blue;
    /// glades need some glade skill).
    public func mayRide(difficulty: RunDifficulty?, gladed: Bool) -> Bool {
        if (difficulty ?? .blue) > maxRoutableDifficulty { return false }
        if gladed && conditionGladed == 0 { return false }
        return true
    }
}
