import Foundation
import Testing
@testable import ActivityImport

@Test func explore() throws {
    for sub in ["ski", "generic", "malformed"] {
        for url in try SharedActivities.files(in: sub) {
            do {
                let a = try ActivityParser.parse(contentsOf: url)
                print("OK  \(sub)/\(url.lastPathComponent): \(a.format) pts=\(a.pointCount) segs=\(a.segments.count) sport=\(a.sport) dev=\(a.device ?? "-") name=\(a.name ?? "-") labels=\(a.labelledSections.count) dropped=\(a.droppedFixes)")
            } catch {
                print("ERR \(sub)/\(url.lastPathComponent): [\(error.code)] \(error)")
            }
        }
    }
}
