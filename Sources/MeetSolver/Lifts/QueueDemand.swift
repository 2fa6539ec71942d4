import MountainGraph

/// Typical lift queues: a base wait per lift and day type, shaped over the
/// day by a continuous demand curve.
enum QueueDemand {
    /// Demand per local hour, placed at the middle of the hour (h + 0.5).
    static let hourly: [Double] = [
        1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, // 0–7
        0.5, 0.8, 1.5, 1.5, 1.2, 1.3, 1.3, 0.9, // 8–15
        1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, // 16–23
    ]

    /// The demand multiplier at local decimal hour `hour`: linear between hour
    /// centres, held at the end values before 00:30 and after 23:30.
    static func multiplier(atLocalHour hour: Double) -> Double {
        let position = hour - 0.5
        if position <= 0 { return hourly[0] }
        if position >= 23 { return hourly[23] }
        let index = Int(position.rounded(.down))
        let share = position - Double(index)
        return hourly[index] + (hourly[index + 1] - hourly[index]) * share
    }

    /// The heuristic base wait (seconds) when no reviewed wait is known.
    static func heuristicBaseSeconds(type: LiftType?, capacity: Int?, weekend: Bool) -> Double {
        var base: Double
        switch type {
        case .gondola?, .cableCar?, .funicular?: base = 180
        case .chairLift?: base = 90
        case .tBar?, .jBar?, .platter?: base = 45
        case .dragLift?, .ropeTow?: base = 30
        case .magicCarpet?: base = 15
        default: base = 90
        }
        if let capacity {
            if capacity >= 6 { base *= 0.7 } else if capacity >= 4 { base *= 0.85 }
        }
        if weekend { base *= 1.4 }
        return base
    }

    /// Queue waits never exceed ten minutes on the curve.
    static let curveCap = 600.0
}
