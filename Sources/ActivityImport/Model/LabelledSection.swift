/// A lift ride or descent as the recording app itself labelled it
/// (Slopes `Action`, Ski Tracks `Segment`), with its own time bounds.
public struct LabelledSection: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case run, lift }
    public var kind: Kind
    /// Unix seconds, inclusive.
    public var start: Double
    public var end: Double
    /// The app's own name or lift identifier, when it gave one.
    public var label: String?
    /// The app's own figures for this section, when its file carries them (Slopes `Metadata.xml`).
    public var appFigures: AppRunFigures?

    public init(kind: Kind, start: Double, end: Double, label: String? = nil, appFigures: AppRunFigures? = nil) {
        self.kind = kind
        self.start = start
        self.end = end
        self.label = label
        self.appFigures = appFigures
    }
}
