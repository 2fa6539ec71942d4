/// What a person writes when logging a moment. In a group grid `body` is the
/// person's own words (their entry); the other fields are shared.
public struct MomentDraft: Sendable, Hashable {
    public var title: String
    public var body: String
    /// `2026-01-02`; nil means today on the phone's clock.
    public var happenedOn: String?
    public var place: String
    public var weather: String
    public var withWhom: String
    /// A solo moment's audience (never wider than its board's); ignored in a group grid.
    public var audience: Audience

    public init(title: String, body: String = "", happenedOn: String? = nil, place: String = "", weather: String = "",
                withWhom: String = "", audience: Audience = .private) {
        self.title = title
        self.body = body
        self.happenedOn = happenedOn
        self.place = place
        self.weather = weather
        self.withWhom = withWhom
        self.audience = audience
    }
}

/// An edit of a moment: only the fields that are set change.
public struct MomentChange: Sendable, Hashable {
    public var title: String?
    public var body: String?
    public var happenedOn: String?
    public var place: String?
    public var weather: String?
    public var withWhom: String?
    public var audience: Audience?

    public init(title: String? = nil, body: String? = nil, happenedOn: String? = nil, place: String? = nil,
                weather: String? = nil, withWhom: String? = nil, audience: Audience? = nil) {
        self.title = title
        self.body = body
        self.happenedOn = happenedOn
        self.place = place
        self.weather = weather
        self.withWhom = withWhom
        self.audience = audience
    }
}

/// A grid someone makes ("Make your own"): saved through `save_grid`.
public struct GridDraft: Sendable, Hashable {
    public var title: String
    public var description: String
    public var color: String
    public var theme: String
    public var size: Int
    /// size² prompts in position order.
    public var prompts: [String]
    public var shared: Bool
    public var sourceGridID: String?

    public init(title: String, description: String = "", color: String, theme: String, size: Int, prompts: [String],
                shared: Bool = false, sourceGridID: String? = nil) {
        self.title = title
        self.description = description
        self.color = color
        self.theme = theme
        self.size = size
        self.prompts = prompts
        self.shared = shared
        self.sourceGridID = sourceGridID
    }
}
