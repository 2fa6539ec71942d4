import Foundation

/// Locates the shared real recordings beside the repository
/// (`<repo>/../shared/data/activities`), found from this file's path. They are
/// read in place and never copied into the repository.
enum SharedActivities {
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // ActivityImportTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data/activities", isDirectory: true)

    /// Whether the recordings are present; when they are not, tests that need them
    /// say so loudly and are reported as skipped.
    static let isPresent: Bool = {
        var isDirectory: ObjCBool = false
        let present = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        if !present { print("⚠️  Real-recording tests SKIPPED: \(missingReason)") }
        return present
    }()

    static let missingReason = "real recordings not found at \(folder.path) (expected ../shared/data/activities beside the repository)"

    /// Every recording under `subfolder`, sorted by path.
    static func files(in subfolder: String) throws -> [URL] {
        let root = folder.appendingPathComponent(subfolder, isDirectory: true)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && $0.pathExtension != "md" }
            .sorted { $0.path < $1.path }
    }

    static func url(_ relative: String) -> URL { folder.appendingPathComponent(relative) }
}
