import MountainGraph

/// A skier's declared ability. It decides the hardest difficulty they are
/// routed onto, how steep a run feels comfortable, and how much fresh snow
/// slows them; an unknown level takes the middle values.
public enum SkillLevel: String, Sendable, CaseIterable, Codable {
    case beginner, intermediate, advanced, expert

    /// The hardest difficulty a strict solve routes this skier onto.
    static func maxRoutableDifficulty(_ level: SkillLevel?) -> RunDifficulty {
        switch level {
        case .beginner: return .green
        case .intermediate: return .blue
        case .advanced, .expert: return .doubleBlack
        case nil: return .blue
        }
    }

    /// Degrees of max gradient where steepness starts to cost the full penalty.
    static func gradientComfortCap(_ level: SkillLevel?) -> Double {
        switch level {
        case .beginner: return 15
        case .intermediate: return 25
        case .advanced: return 35
        case .expert: return 45
        case nil: return 25
        }
    }

    /// How strongly steepness beyond comfort slows this skier.
    static func steepnessWeight(_ level: SkillLevel?) -> Double {
        switch level {
        case .beginner: return 0.8
        case .intermediate: return 0.6
        case .advanced: return 0.4
        case .expert: return 0.2
        case nil: return 0.6
        }
    }

    /// Slow-down per centimetre of fresh snow on ungroomed terrain.
    static func freshSnowPerCentimetre(_ level: SkillLevel?) -> Double {
        switch level {
        case .expert: return 0.005
        case .advanced: return 0.012
        case .intermediate: return 0.025
        case .beginner, nil: return 0.04
        }
    }
}
