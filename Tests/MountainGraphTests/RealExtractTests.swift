import Foundation
import Testing
@testable import MountainGraph

/// Every real extract in ../shared/data/osm must build, deterministically.
@Suite("Real OSM extracts")
struct RealExtractTests {
    /// The DEM tiles beside the extracts (Andorra is covered by N42E001).
    static func elevation(in folder: URL) throws -> SRTMElevation {
        let demFolder = folder.appendingPathComponent("dem", isDirectory: true)
        let files = (try? FileManager.default.contentsOfDirectory(at: demFolder, includingPropertiesForKeys: nil)) ?? []
        let tiles = try files.filter { $0.lastPathComponent.lowercased().contains(".hgt") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map { try SRTMTile(fileName: $0.lastPathComponent, bytes: SharedData.bytes($0)) }
        return SRTMElevation(tiles: tiles)
    }

    @Test("every real extract builds, twice, to identical bytes")
    func everyExtractBuilds() throws {
        guard let folder = SharedData.availableOSMFolder(for: "RealExtractTests.everyExtractBuilds") else { return }
        let extracts = try SharedData.realExtracts(in: folder)
        #expect(!extracts.isEmpty, "no *.ski.osm.json in \(folder.path)")
        let elevation = try Self.elevation(in: folder)
        for url in extracts {
            let bytes = try SharedData.bytes(url)
            let parameters = BuildParameters(resortID: String(url.lastPathComponent.prefix { $0 != "-" }),
                                             manifestVersion: 0, snapshotDate: "2025-01-01")
            let options = BuildOptions(missingElevation: .assumeFlat)
            let first = try GraphBuilder.build(osm: OSMData(overpassJSON: bytes), parameters: parameters,
                                               elevation: elevation, options: options)
            let second = try GraphBuilder.build(osm: OSMData(overpassJSON: bytes), parameters: parameters,
                                                elevation: elevation, options: options)
            let blobA = try first.graph.encodeBlob()
            let blobB = try second.graph.encodeBlob()
            print("\(url.lastPathComponent):\n\(first.report)\n  content sha256 \(blobA.contentSHA256), \(blobA.uncompressedSize) → \(blobA.compressed.count) bytes")
            #expect(first.graph.canonicalJSON() == second.graph.canonicalJSON())
            #expect(blobA == blobB)
            #expect(first.report.nodeCount > 0 && first.report.edgeCount > 0)
            #expect(first.report.liftEdges > 0 && first.report.runEdges > 0)
            let decoded = try MountainGraph.decodeBlob(blobA.compressed, expecting: ExpectedDataset(
                resortID: parameters.resortID, manifestVersion: 0, snapshotDate: "2025-01-01",
                contentSHA256: blobA.contentSHA256, blobSHA256: blobA.blobSHA256))
            #expect(decoded == first.graph)
        }
    }
}
