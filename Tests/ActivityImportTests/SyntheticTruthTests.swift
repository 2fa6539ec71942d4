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

    @Test("segmentation finds ≥ 95 % of runs and lifts with ≥ 95 % precision; matching puts ≥ 90 % of descent distance on the true edges")
    func truth() {
        let evaluation = SyntheticEvaluation.run(graph: Self.graph, seeds: Array(1...6))
        let s = evaluation.segmentation
        print("synthetic: \(evaluation.days) days, \(evaluation.fixes) fixes; runs P=\(evaluation.runs.precision) R=\(evaluation.runs.recall) "
              + "(\(evaluation.runs.truth) true); lifts P=\(evaluation.lifts.precision) R=\(evaluation.lifts.recall) (\(evaluation.lifts.truth) true); "
              + "descent on true edges \(evaluation.matchedOnTrueEdges) of \(Int(evaluation.descentDistance)) m")
        #expect(evaluation.runs.truth >= 30)
        #expect(s.precision >= 0.95)
        #expect(s.recall >= 0.95)
        #expect(evaluation.matchedOnTrueEdges >= 0.90)
    }
}
