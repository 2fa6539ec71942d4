import Foundation
import MountainGraph
@testable import MeetSolver

/// The real OSM extracts in ../shared/data/osm, built as an operator gets them
/// from `summit resort review --accept all`: identities, connectors and
/// rendezvous points as proposed. Read in place, never copied into the repository.
enum RealResorts {
    static let osmFolder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/osm", isDirectory: true)

    struct Resort: Sendable {
        var file: String
        var resortID: String
        var utcOffset: Int
        var usesDEM: Bool
    }

    static let andorra = Resort(file: "andorra-2025-01-19.ski.osm.json", resortID: "andorra", utcOffset: 3600, usesDEM: true)
    static let okemo = Resort(file: "okemo-vt-2024-09-21.ski.osm.json", resortID: "okemo", utcOffset: -18_000, usesDEM: false)
    static let mammoth = Resort(file: "mammoth-ca-2023-06.ski.osm.json", resortID: "mammoth", utcOffset: -28_800, usesDEM: false)

    /// The extract's URL, or nil after saying loudly why the test is skipped.
    static func available(_ resort: Resort, for test: String) -> URL? {
        let url = osmFolder.appendingPathComponent(resort.file)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        print("⚠️  SKIPPED \(test): \(resort.file) not found in \(osmFolder.path) (expected ../shared/data/osm beside the repository)")
        return nil
    }

    static func graph(_ resort: Resort, url: URL) throws -> MountainGraph {
        let osm = try OSMData(overpassJSON: Array(try Data(contentsOf: url)))
        var elevation: (any ElevationSource)?
        if resort.usesDEM {
            let dem = osmFolder.appendingPathComponent("dem/N42E001.hgt.zip")
            elevation = try SRTMTile(fileName: dem.lastPathComponent, bytes: Array(try Data(contentsOf: dem)))
        }
        let parameters = BuildParameters(resortID: resort.resortID, manifestVersion: 1, snapshotDate: "2025-01-01")
        let options = BuildOptions(missingElevation: .assumeFlat)
        // Review with every proposal accepted, on an empty draft: every routable way claimed.
        let proposals = try ResortReview.propose(osm: osm, elevation: elevation, options: options)
        let manifest = CanonicalManifest(trails: proposals.claims.compactMap(\.trail), lifts: proposals.claims.compactMap(\.lift),
                                         rendezvousPoints: proposals.rendezvous.map(\.point),
                                         connectors: ConnectorReview.accept(proposals.connectors))
        return try GraphBuilder.build(osm: osm, manifest: manifest, parameters: parameters, elevation: elevation, options: options).graph
    }

    /// 10:00 local on Wednesday 2026-01-14.
    static func morning(_ resort: Resort) -> Double { TestMountain.wednesdayTen + 3600 - Double(resort.utcOffset) }
}
