/// Whether a recording is a lift-served ski day, and if not, why not.
public enum SkiDayVerdict: Sendable, Equatable {
    case skiDay
    case notSki(reason: String)

    /// Decides from what the file declares and what segmentation found: a
    /// declared other sport is never a ski day; an undeclared one needs at
    /// least one lift-like ride and one descent of 50 m or more.
    public static func decide(sport: DeclaredSport, sections: [SkiSection]) -> SkiDayVerdict {
        switch sport {
        case .other(let name):
            return .notSki(reason: "the file records \(name), not downhill skiing or snowboarding")
        case .downhill:
            return sections.contains { $0.kind == .run } ? .skiDay
                : .notSki(reason: "it is marked as skiing but holds no descent")
        case .unknown:
            // A lift climbs 50 m or more at 0.5–8 m/s on average: skinning, climbing
            // or walking uphill (a Nordic or touring day) is slower than any chair or drag lift.
            let lifts = sections.filter { section in
                guard section.kind == .lift, section.duration > 0,
                      let first = section.points.first?.elevation, let last = section.points.last?.elevation else { return false }
                let climb = (last - first) / section.duration
                return last - first >= 50 && climb >= 0.5 && climb <= 8  // faster is an altimeter jump, not a lift
            }.count
            let bigRuns = sections.filter { section in
                section.kind == .run && RunStatistics(section.points).vertical >= 50
            }.count
            if lifts > 0 && bigRuns > 0 { return .skiDay }
            return .notSki(reason: lifts == 0 ? "no lift rides were found, so it is not a lift-served ski day"
                                              : "no descent of 50 m or more was found")
        }
    }

    public var isSkiDay: Bool { self == .skiDay }
}
