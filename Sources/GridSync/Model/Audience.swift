/// Who may see a board or a moment, narrow to wide (spec §4.4).
public enum Audience: String, Sendable, Hashable, Comparable, CaseIterable {
    case `private`, friends, `public`

    public static func < (a: Audience, b: Audience) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Who sees a person's words or photo inside a group grid.
public enum PartAudience: String, Sendable, Hashable, CaseIterable {
    case `private`, group
}
