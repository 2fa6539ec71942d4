/// What the recording says it is, before any segmentation.
public enum DeclaredSport: Sendable, Equatable, Codable {
    /// Downhill skiing or snowboarding (FIT sport 13/14, a ski app export).
    case downhill
    /// A sport that is not lift-served skiing: running, cycling, Nordic skiing, …
    case other(String)
    /// The file does not say.
    case unknown

    /// Maps a free-text sport label (GPX `<type>`, TCX `Sport`, FIT names) to a declaration.
    public init(label: String?) {
        guard let label, !label.isEmpty else { self = .unknown; return }
        let key = label.lowercased().filter { $0.isLetter }
        if key.contains("alpine") || key.contains("downhill") || key.contains("snowboard")
            || key == "skiing" || key == "ski" || key == "resortskiing" || key == "backcountryskiing" {
            self = .downhill
        } else if key == "other" || key == "generic" || key == "unknown" {
            self = .unknown
        } else {
            self = .other(label)
        }
    }
}
