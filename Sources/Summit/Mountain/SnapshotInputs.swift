import MountainGraph

/// Everything a build reads besides the manifest: the parsed OSM snapshot,
/// its elevation, and the elevation policy chosen at ingest.
package struct SnapshotInputs: Sendable {
    package let snapshotDate: String
    let sourceName: String
    let sha256: String
    package let osm: OSMData
    package let elevation: (any ElevationSource)?
    let elevationPolicy: ElevationPolicy

    package init(snapshotDate: String, sourceName: String, sha256: String, osm: OSMData,
                 elevation: (any ElevationSource)?, elevationPolicy: ElevationPolicy) {
        self.snapshotDate = snapshotDate
        self.sourceName = sourceName
        self.sha256 = sha256
        self.osm = osm
        self.elevation = elevation
        self.elevationPolicy = elevationPolicy
    }

    package var options: BuildOptions { BuildOptions(missingElevation: elevationPolicy.missingElevation) }
}

/// What a build does with a routable way that has no elevation at all.
package enum ElevationPolicy: String, Sendable, Codable {
    /// Refuse the build (`missing_elevation`): the canonical rule.
    case fail
    /// Build such ways flat in their drawing direction: an operator's explicit
    /// choice at ingest for extracts no DEM covers; reports count those ways.
    case assumeFlat = "assume_flat"

    var missingElevation: MissingElevationPolicy { self == .fail ? .fail : .assumeFlat }
}

/// Why a snapshot cannot be used, in words an operator can act on.
package enum SnapshotRefusal {
    package static func doesNotBuild(_ error: GraphBuildError, source: String) -> CLIError {
        let missing = error.failures.filter { $0.code == .missingElevation }
        if !missing.isEmpty, missing.count == error.failures.count {
            let ways = missing.flatMap(\.wayIDs)
            let shown = ways.prefix(8).map(String.init).joined(separator: ", ") + (ways.count > 8 ? ", …" : "")
            return CLIError("\(source): \(ways.count) routable way\(ways.count == 1 ? " has" : "s have") no elevation at all (\(shown)); nothing was stored",
                            fix: "give elevation covering the resort (ingest's --elevation FILE: SRTM .hgt / .hgt.zip tiles or an elevation map .json; "
                                + "fetch's --dem-dir DIR with the tiles), or --assume-flat to build those ways flat in their drawing direction")
        }
        let lines = error.failures.prefix(20).map { "  - \($0)" }.joined(separator: "\n")
        let more = error.failures.count > 20 ? "\n  … and \(error.failures.count - 20) more" : ""
        return CLIError("\(source) does not build; nothing was stored:\n\(lines)\(more)",
                        fix: "correct the extract or the manifest rows named above")
    }
}
