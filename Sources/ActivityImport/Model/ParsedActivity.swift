/// A recording in the one shape every parser produces: UTC fixes grouped into
/// the source's own segments, plus what the file says about itself.
public struct ParsedActivity: Sendable {
    public var format: ActivityFormat
    /// The file name as given (for messages and provenance).
    public var fileName: String
    /// SHA-256 of the file's bytes: the raw source identity.
    public var sourceFileHash: String
    public var sport: DeclaredSport
    /// Device or app that recorded it (`creator`, FIT manufacturer/product, Slopes build…).
    public var device: String?
    /// A name the file carries (track name, Slopes `locationName`): a resort hint.
    public var name: String?
    /// Fixes in time order; a new segment where the source started one.
    public var segments: [[TrackPoint]]
    /// Sections the recording app labelled itself; empty when it did not.
    public var labelledSections: [LabelledSection]
    /// Fixes the parser left out, with why (for example a 0,0 "no fix" position).
    public var droppedFixes: Int

    public init(format: ActivityFormat, fileName: String, sourceFileHash: String, sport: DeclaredSport = .unknown,
                device: String? = nil, name: String? = nil, segments: [[TrackPoint]],
                labelledSections: [LabelledSection] = [], droppedFixes: Int = 0) {
        self.format = format
        self.fileName = fileName
        self.sourceFileHash = sourceFileHash
        self.sport = sport
        self.device = device
        self.name = name
        self.segments = segments
        self.labelledSections = labelledSections
        self.droppedFixes = droppedFixes
    }

    public var points: [TrackPoint] { segments.flatMap { $0 } }
    public var pointCount: Int { segments.reduce(0) { $0 + $1.count } }
}
