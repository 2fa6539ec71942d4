import Foundation
import MountainGraph
import Testing
@testable import ActivityImport

/// Segmentation and trail matching on synthetic ski days whose truth is known.
@Suite("Synthetic ski days with known truth")
struct SyntheticTruthTests {
    static let graph: MountainGraph = {
        let osm = try! OSMData(overpassJSON: SyntheticResort(seed: 7, size: 1).overpassJSON())
        return try! GraphBuilder.build(osm: osm, parameters: BuildParameters(resortID: "synthetic-7", manifestVersion: 1,
                                                                            snapshotDate: "2025-01-01")).graph
    }()

    @Test("segmentation finds ≥ 95 % of runs and lifts with ≥ 95 % precision; matching puts ≥ 90 % of descent distance on the true edges",
          arguments: [(4.0, 1.0), (8.0, 1.0), (6.0, 3.0)])
    func truth(noise: Double, interval: Double) {
        let evaluation = SyntheticEvaluation.run(graph: Self.graph, seeds: Array(1...6), horizontalNoise: noise, sampleInterval: interval)
        print("GPS drift σ \(noise) m, a fix every \(interval) s:")
        let s = evaluation.segmentation
        print("synthetic: \(evaluation.days) days, \(evaluation.fixes) fixes; runs P=\(evaluation.runs.precision) R=\(evaluation.runs.recall) "
              + "(\(evaluation.runs.truth) true); lifts P=\(evaluation.lifts.precision) R=\(evaluation.lifts.recall) (\(evaluation.lifts.truth) true); "
              + "descent on true edges \(evaluation.matchedOnTrueEdges) of \(Int(evaluation.descentDistance)) m")
        #expect(evaluation.runs.truth >= 30)
        #expect(s.precision >= 0.95)
        #expect(s.recall >= 0.95)
        #expect(evaluation.matchedOnTrueEdges >= 0.90)
    }

    @Test("off-trail stretches are reported as unmatched, not forced onto a trail; a descent far from any trail matches nothing")
    func unmatchedStretches() throws {
        let day = SyntheticSkiDay(graph: Self.graph, options: .init(seed: 2))
        let truthRun = try #require(day.truth.sections.first { $0.kind == .run })
        let points = day.points.filter { $0.time >= truthRun.start && $0.time <= truthRun.end }
        let matcher = TrailMatcher(graph: Self.graph)
        let clean = matcher.match(SkiSection(kind: .run, points: points))
        #expect(clean.method == .strict && clean.matchedShare > 0.95 && clean.unmatched.isEmpty)
        #expect(clean.observations.contains { $0.feedsLearning })

        // The middle third moved 500 m east: off-piste.
        let third = points.count / 3
        var detour = points
        let metresPerDegreeLon: Double = Geo.earthRadius * Double.pi / 180 * cos(points[0].lat * Double.pi / 180)
        for k in third..<(2 * third) { detour[k].lon += 500 / metresPerDegreeLon }
        let partial = matcher.match(SkiSection(kind: .run, points: detour))
        #expect(partial.unmatched.count == 1)
        #expect(partial.pointEdges[third + third / 2] == nil)
        #expect(partial.matchedShare < 0.9)
        #expect(!partial.observations.contains { $0.enteredAt > detour[third].time && $0.exitedAt < detour[2 * third - 1].time })

        // The whole descent 110 km away, outside the resort: no trail at all.
        let far = points.map { point -> TrackPoint in var moved = point; moved.lat += 1; return moved }
        let none = matcher.match(SkiSection(kind: .run, points: far))
        #expect(none.method == .none && none.edgeIDs.isEmpty && none.primaryEdgeID == nil)
    }
}
