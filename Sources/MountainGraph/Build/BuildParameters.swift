/// The dataset identity a build produces, given by the request (never by a clock).
public struct BuildParameters: Sendable, Equatable {
    public var resortID: String
    public var manifestVersion: Int
    /// `YYYY-MM-DD` of the OSM snapshot.
    public var snapshotDate: String

    public init(resortID: String, manifestVersion: Int, snapshotDate: String) {
        self.resortID = resortID
        self.manifestVersion = manifestVersion
        self.snapshotDate = snapshotDate
    }
}

/// What to do with a routable way whose vertices have no elevation at all.
public enum MissingElevationPolicy: Sendable, Equatable {
    /// Refuse the build (`missing_elevation`): the canonical pipeline's rule.
    case fail
    /// Keep the way at elevation 0 in its OSM drawing direction. For extracts
    /// with no DEM coverage (previews, tests); the report counts such ways.
    case assumeFlat
}

public struct BuildOptions: Sendable {
    public var missingElevation: MissingElevationPolicy

    public init(missingElevation: MissingElevationPolicy = .fail) {
        self.missingElevation = missingElevation
    }
}
