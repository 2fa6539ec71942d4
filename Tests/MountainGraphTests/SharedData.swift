import Foundation
import Testing

/// Locates the shared real-data folder beside the repository
/// (`<repo>/../shared/data`), found from this file's path so tests work from
/// any clone. The data is read in place and never copied into the repository.
enum SharedData {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // MountainGraphTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root

    static let osmFolder: URL = repositoryRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data/osm", isDirectory: true)

    /// Whether the real extracts are present; tests that need them are
    /// reported as skipped (with this reason) when they are not.
    static let hasOSMFolder: Bool = {
        var isDirectory: ObjCBool = false
        let present = FileManager.default.fileExists(atPath: osmFolder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        if !present {
            print("⚠️  Real-data tests SKIPPED: \(missingReason)")
        }
        return present
    }()

    static var missingReason: Comment {
        "real OSM extracts not found at \(osmFolder.path) (expected ../shared/data/osm beside the repository)"
    }

    /// The folder, or nil after printing why tests that need it are skipped.
    static func availableOSMFolder(for test: String) -> URL? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: osmFolder.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return osmFolder
        }
        print("⚠️  SKIPPED \(test): real OSM extracts not found at \(osmFolder.path) (expected ../shared/data/osm beside the repository)")
        return nil
    }

    /// Every `*.ski.osm.json` extract, sorted by name.
    static func realExtracts(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".ski.osm.json") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }
}
