import Foundation
import Testing
@testable import ActivityImport

@Test func explore() throws {
    var all = SegmentationScore(truth: 0, detected: 0, matched: 0)
    for url in try SharedActivities.files(in: "ski") where ["slopes", "skiz"].contains(url.pathExtension) {
        let a = try ActivityParser.parse(contentsOf: url)
        let truth = SkiDaySegmenter.sections(from: a.labelledSections, of: a.segments).map(\.interval)
        let detected = SkiDaySegmenter().sections(of: a.segments)
        let s = SegmentationScore(detected: detected.map(\.interval), truth: truth)
        all = all + s
        print("SEG \(url.lastPathComponent): truth \(truth.count) (runs \(truth.filter{$0.kind == .run}.count)) detected \(detected.count) (runs \(detected.filter{$0.kind == .run}.count)) P=\(s.precision) R=\(s.recall)")
        if url.lastPathComponent.hasPrefix("keystone_2024-01-26") {
            for t in truth { print("   T \(t.kind) \(TimestampFormat.iso(t.start)) \(Int(t.end - t.start))") }
            for d in detected { print("   D \(d.kind) \(TimestampFormat.iso(d.start)) \(Int(d.end - d.start))") }
        }
    }
    print("SEG ALL P=\(all.precision) R=\(all.recall)")
}
