import Foundation
import Testing

/// The real OSM extracts in `../shared/data/osm` beside the repository, found
/// from this file's path. They are read in place, never copied; tests that
/// need them are reported as skipped, with the reason, when they are absent.
public enum SharedOSMData {
    public static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // SummitTestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data/osm", isDirectory: true)

    public static let isPresent: Bool = {
        var isDirectory: ObjCBool = false
        let present = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        if !present { print("⚠️  Real-data tests SKIPPED: \(missingReason)") }
        return present
    }()

    public static var missingReason: Comment {
        "real OSM extracts not found at \(folder.path) (expected ../shared/data/osm beside the repository)"
    }

    /// Every `*.ski.osm.json` extract, by name.
    public static func extracts() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".ski.osm.json") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The SRTM tiles in `dem/`.
    public static func demTiles() -> [URL] {
        let dem = folder.appendingPathComponent("dem", isDirectory: true)
        return ((try? FileManager.default.contentsOfDirectory(at: dem, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.lowercased().contains(".hgt") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
