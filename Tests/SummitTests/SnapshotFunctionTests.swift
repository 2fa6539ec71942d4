import Foundation
import MountainGraph
@testable import Summit
import Testing

/// snapshot-resort's two files, as the PowderMeet app decodes them: Overpass JSON with
/// every way's vertices, and an elevation map keyed `%.6f,%.6f` for the vertices the
/// app looks up (those without an `ele` tag).
@Suite struct SnapshotFunctionTests {
    static let extract = """
        {"elements": [
          {"type": "node", "id": 1, "lat": 46.0, "lon": 7.0, "tags": {"ele": "2000"}},
          {"type": "node", "id": 2, "lat": 46.001, "lon": 7.001},
          {"type": "node", "id": 3, "lat": 46.0025, "lon": 7.0025},
          {"type": "node", "id": 4, "lat": 46.5, "lon": 7.5},
          {"type": "way", "id": 901, "nodes": [1, 2, 3], "tags": {"piste:type": "downhill", "name": "Lone Run"}}
        ]}
        """

    func snapshot(elevation: String?) throws -> SnapshotInputs {
        let osm = try OSMExtract(bytes: Array(Self.extract.utf8), sourceName: "x.json", snapshotDate: "2025-01-19").data
        let source = try elevation.map { try ElevationInput(fileName: "elev.json", bytes: Array($0.utf8)).source() }
        return SnapshotInputs(snapshotDate: "2025-01-19", sourceName: "x.json", sha256: String(repeating: "a", count: 64), osm: osm,
                              elevation: source, elevationPolicy: .fail)
    }

    @Test func theOverpassFileHasNodesThenWaysWithStringTags() throws {
        let object = ResortFunctions.overpassJSON(try snapshot(elevation: nil).osm)
        let data = try JSONSerialization.data(withJSONObject: object)
        let elements = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["elements"] as? [[String: Any]])
        #expect(elements.map { $0["type"] as? String } == ["node", "node", "node", "node", "way"])
        #expect(elements.map { ($0["id"] as? NSNumber)?.int64Value } == [1, 2, 3, 4, 901])
        #expect((elements[4]["nodes"] as? [Int]) == [1, 2, 3])
        #expect((elements[0]["tags"] as? [String: String]) == ["ele": "2000"])
        #expect(elements[1]["tags"] == nil, "a node without tags has no tags key")
    }

    @Test func theElevationMapCoversUntaggedWayVerticesTheDEMHas() throws {
        // The DEM knows node 2 and the stray node 4, not node 3; node 1 has its own ele.
        let map = ResortFunctions.elevationMap(try snapshot(elevation: """
            {"46.000000,7.000000": 1999, "46.001000,7.001000": 1950.5, "46.500000,7.500000": 1200}
            """))
        #expect(map.keys.sorted() == ["46.001000,7.001000"])
        #expect(map["46.001000,7.001000"] as? Double == 1950.5)
        #expect(ResortFunctions.elevationMap(try snapshot(elevation: nil)).isEmpty, "no DEM: nothing to look up")
    }

    static let andorra = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/osm")

    /// On a real extract and its SRTM tile, as an operator ingests them: every way vertex the
    /// app would look up has a sample, and the samples are Andorra's heights.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: andorra.appendingPathComponent("dem/N42E001.hgt.zip").path),
                   "../shared/data/osm (the Andorra extract and its SRTM tile) is absent"))
    func aRealExtractsElevationMapCoversItsWays() throws {
        let extract = try OSMExtract(file: Self.andorra.appendingPathComponent("andorra-2025-01-19.ski.osm.json"), snapshotDate: nil)
        let tile = try ElevationInput(file: Self.andorra.appendingPathComponent("dem/N42E001.hgt.zip"))
        let snapshot = SnapshotInputs(snapshotDate: extract.snapshotDate, sourceName: "andorra", sha256: String(repeating: "a", count: 64),
                                      osm: extract.data, elevation: try ElevationInput.layered([tile]), elevationPolicy: .fail)
        let map = ResortFunctions.elevationMap(snapshot)
        let wanted = Set(snapshot.osm.ways.flatMap(\.nodeIDs).compactMap { snapshot.osm.node($0) }.filter { $0.tags["ele"] == nil }
            .map { String(format: "%.6f,%.6f", $0.lat, $0.lon) })
        #expect(wanted.count > 10_000 && Set(map.keys) == wanted, "\(map.count) of \(wanted.count) vertices")
        let heights = map.values.compactMap { $0 as? Double }
        #expect(heights.count == map.count && heights.allSatisfy { (900...3000).contains($0) }, "\(heights.min() ?? 0)–\(heights.max() ?? 0) m")
        let elements = (ResortFunctions.overpassJSON(snapshot.osm)["elements"] as? [[String: Any]]) ?? []
        #expect(elements.count == snapshot.osm.nodes.count + snapshot.osm.ways.count)
    }
}

