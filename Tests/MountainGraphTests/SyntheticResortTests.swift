import Digest
import Testing
@testable import MountainGraph

@Suite("Synthetic resorts")
struct SyntheticResortTests {
    private static let parameters = BuildParameters(resortID: "synthetic", manifestVersion: 1, snapshotDate: "2025-01-01")

    @Test("the same seed gives the same bytes; another seed does not")
    func deterministic() {
        let a = SyntheticResort(seed: 42, size: 1).overpassJSON()
        let b = SyntheticResort(seed: 42, size: 1).overpassJSON()
        let c = SyntheticResort(seed: 43, size: 1).overpassJSON()
        #expect(a == b)
        #expect(a != c)
    }

    @Test("a synthetic resort builds with full elevation and realistic shape")
    func buildsRealistically() throws {
        let osm = try OSMData(overpassJSON: SyntheticResort(seed: 1, size: 1).overpassJSON())
        // Every vertex carries ele: the strict policy must pass.
        let result = try GraphBuilder.build(osm: osm, parameters: Self.parameters)
        let report = result.report
        #expect(report.liftWays >= 20 && report.liftWays <= 40)
        #expect(report.runWays >= 40)
        #expect(report.connectorWays > 0 && report.traverseEdges > 0)
        #expect(report.excludedAreaWays == SyntheticResort.peaksPerSize)
        #expect(report.runsByDifficulty.count >= 3)
        // Runs end at lift bases and start at lift tops: one mountain, mostly routable.
        #expect(report.connectedComponents <= 4)
        #expect(report.largestStronglyConnectedComponent * 2 > report.nodeCount)
        for edge in result.graph.edges where edge.kind == .run {
            #expect(edge.attributes.maxGradient < 45, "\(edge.id) is implausibly steep")
        }
        for node in result.graph.nodes {
            #expect(node.elevation > 1000 && node.elevation < 3000)
        }
        // Lifts drawn top-down are still built base → top.
        for edge in result.graph.edges where edge.kind == .lift && !edge.isReverseTwin {
            let source = try #require(result.graph.node(id: edge.sourceID))
            let target = try #require(result.graph.node(id: edge.targetID))
            #expect(source.elevation <= target.elevation)
        }
    }

    @Test("larger sizes scale the resort")
    func scales() throws {
        let small = try GraphBuilder.build(osm: OSMData(overpassJSON: SyntheticResort(seed: 5, size: 1).overpassJSON()),
                                           parameters: Self.parameters).report
        let large = try GraphBuilder.build(osm: OSMData(overpassJSON: SyntheticResort(seed: 5, size: 4).overpassJSON()),
                                           parameters: Self.parameters).report
        #expect(large.liftWays > 3 * small.liftWays)
        #expect(large.edgeCount > 3 * small.edgeCount)
    }

    /// Recorded content hashes. The builder runs in a fresh process for every
    /// test run, with a different hash seed each time, so matching these
    /// proves no dictionary order or other process state reaches the blob.
    /// They change only when the generator or the v15 output intentionally does.
    static let goldenContentSHA256: [UInt64: String] = [
        1: "d1413e6e731508c40589fafa7b05e3d113836a0ca5ef0c1960c82473e3fe356a",
        2: "3cff965b67f531486b8c47f2984b261faa43ec42791ea3c8a3e22b10f715ce5d",
    ]

    @Test("the build is byte-identical across runs and processes", arguments: [UInt64(1), 2])
    func goldenHash(seed: UInt64) throws {
        let bytes = SyntheticResort(seed: seed, size: 1).overpassJSON()
        let first = try GraphBuilder.build(osm: OSMData(overpassJSON: bytes), parameters: Self.parameters).graph.encodeBlob()
        let second = try GraphBuilder.build(osm: OSMData(overpassJSON: bytes), parameters: Self.parameters).graph.encodeBlob()
        #expect(first == second)
        print("synthetic seed \(seed): content sha256 \(first.contentSHA256), fingerprint \(first.fingerprint)")
        #expect(first.contentSHA256 == Self.goldenContentSHA256[seed])
    }
}
