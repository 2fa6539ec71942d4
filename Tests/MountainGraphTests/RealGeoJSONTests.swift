import Foundation
import Testing
@testable import MountainGraph

/// The real GeoJSON exports and the Andorra cut, with the figures
/// ../shared/data/osm/SOURCES.md gives for them.
@Suite("Real GeoJSON exports and cuts")
struct RealGeoJSONTests {
    static func file(_ name: String, test: String) -> URL? {
        guard let folder = SharedData.availableOSMFolder(for: test) else { return nil }
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("⚠️  SKIPPED \(test): \(url.path) not found")
            return nil
        }
        return url
    }

    static func isPiste(_ way: OSMWay) -> Bool { way.tags["piste:type"] != nil }
    static func isLiftLine(_ way: OSMWay) -> Bool { way.tags["aerialway"].map { $0 != "station" } ?? false }

    @Test("Trysil: pistes and lifts merge, 201 shared piste vertices, 14 lift ends on a piste vertex",
          .enabled(if: SharedData.hasOSMFolder, SharedData.missingReason))
    func trysil() throws {
        guard let pistesURL = Self.file("trysil-no-2024-02-14.pistes.geojson", test: "RealGeoJSONTests.trysil"),
              let liftsURL = Self.file("trysil-no-2024-02-13.lifts.geojson", test: "RealGeoJSONTests.trysil") else { return }
        let pistes = try OSMGeoJSON(bytes: SharedData.bytes(pistesURL))
        let lifts = try OSMGeoJSON(bytes: SharedData.bytes(liftsURL))
        // SOURCES.md: 167 piste LineStrings; 37 lift LineStrings and 3 Polygons; no node ids.
        #expect(pistes.ways.count == 167 && pistes.ways.allSatisfy { !$0.fromPolygon })
        #expect(lifts.ways.filter { !$0.fromPolygon }.count == 37)
        #expect(lifts.ways.filter(\.fromPolygon).map(\.id) == [394706993, 394707108, 395167202])
        #expect(pistes.nodes.isEmpty && lifts.nodes.isEmpty)
        #expect(pistes.timestamp == "2024-02-14T08:59:15Z" && lifts.timestamp == "2024-02-13T12:07:46Z")

        let osm = try OSMData(merging: [("pistes", .geoJSON(pistes)), ("lifts", .geoJSON(lifts))])
        #expect(osm.ways.count == 207)
        #expect(osm.nodes.count == 1550, "distinct coordinates of both files")
        #expect(osm.nodes.keys.allSatisfy { $0 >= OSMGeoJSON.derivedNodeIDBase }, "every id is derived from coordinates")
        var pisteWaysPerVertex: [Int64: Int] = [:]
        for way in osm.ways where Self.isPiste(way) {
            for id in Set(way.nodeIDs) { pisteWaysPerVertex[id, default: 0] += 1 }
        }
        #expect(pisteWaysPerVertex.values.filter { $0 >= 2 }.count == 201)
        let polygonIDs = Set(lifts.ways.filter(\.fromPolygon).map(\.id))
        let liftLines = osm.ways.filter { Self.isLiftLine($0) && !polygonIDs.contains($0.id) }
        #expect(liftLines.count == 37)
        let ends = liftLines.flatMap { [$0.nodeIDs.first!, $0.nodeIDs.last!] }
        #expect(ends.count == 74 && ends.filter { pisteWaysPerVertex[$0] != nil }.count == 14)
        // The station polygons keep their tags, ele included.
        #expect(osm.ways.first { $0.id == 394706993 }?.tags["ele"] == "485")

        // It builds (no DEM covers Trysil: flat), and a lift end joined to a piste is one graph node.
        let result = try GraphBuilder.build(osm: osm, parameters: BuildParameters(resortID: "trysil", manifestVersion: 0, snapshotDate: "2024-02-14"),
                                            options: BuildOptions(missingElevation: .assumeFlat))
        #expect(result.report.runEdges > 0 && result.report.liftEdges > 0)
        let sharedEnd = try #require(ends.first { pisteWaysPerVertex[$0] != nil })
        let node = try #require(result.graph.nodes.first { $0.id == "n\(sharedEnd)" })
        #expect(result.graph.edges.contains { $0.kind == .lift && ($0.sourceID == node.id || $0.targetID == node.id) })
        #expect(result.graph.edges.contains { $0.kind == .run && ($0.sourceID == node.id || $0.targetID == node.id) })
    }

    @Test("Mammoth: the four skinav GeoJSON files give exactly the ways and node ids of mammoth-ca-2023-06.ski.osm.json",
          .enabled(if: SharedData.hasOSMFolder, SharedData.missingReason))
    func mammoth() throws {
        guard let reference = Self.file("mammoth-ca-2023-06.ski.osm.json", test: "RealGeoJSONTests.mammoth") else { return }
        let folder = reference.deletingLastPathComponent().appendingPathComponent("mammoth-ca-skinav-geojson")
        let names = ["pisteWay.geojson", "liftWay.geojson", "pisteNode.geojson", "liftNode.geojson"]
        let inputs = try names.map { ($0, try OSMInput(bytes: SharedData.bytes(folder.appendingPathComponent($0)))) }
        let osm = try OSMData(merging: inputs)
        let expected = try OSMData(overpassJSON: SharedData.bytes(reference))
        #expect(osm.ways.count == 200 && osm.nodes.count == 1623)
        #expect(osm.ways == expected.ways)
        #expect(osm.nodes == expected.nodes)
        #expect(!osm.nodes.keys.contains { $0 >= OSMGeoJSON.derivedNodeIDBase }, "every vertex matched a node feature")
    }

    /// SOURCES.md splits Andorra by the position of each way's first node;
    /// the cut keeps every way with any vertex in the box. On this file the
    /// two agree exactly (no way of one area has a vertex in another's box),
    /// so the cuts give SOURCES.md's counts and together hold every way once.
    @Test("Andorra: each ski area's box cuts out that area", .enabled(if: SharedData.hasOSMFolder, SharedData.missingReason))
    func andorraCuts() throws {
        guard let url = Self.file("andorra-2025-01-19.ski.osm.json", test: "RealGeoJSONTests.andorraCuts") else { return }
        let osm = try OSMData(overpassJSON: SharedData.bytes(url))
        struct Area { var box: OSMBoundingBox; var ways: Int; var downhill: Int; var lifts: Int; var nodes: Int }
        let areas = [
            "Grandvalira": Area(box: try OSMBoundingBox(south: 42.518, west: 1.588, north: 42.580, east: 1.738), ways: 636, downhill: 536, lifts: 77, nodes: 12_213),
            "Pal-Arinsal": Area(box: try OSMBoundingBox(south: 42.526, west: 1.444, north: 42.578, east: 1.514), ways: 89, downhill: 51, lifts: 31, nodes: 1_373),
            "Ordino-Arcalís": Area(box: try OSMBoundingBox(south: 42.617, west: 1.474, north: 42.638, east: 1.505), ways: 39, downhill: 27, lifts: 11, nodes: 977),
        ]
        var seen: [Int64] = []
        for (name, area) in areas.sorted(by: { $0.key < $1.key }) {
            let cut = osm.cut(to: area.box)
            #expect(cut.ways.count == area.ways, "\(name)")
            #expect(cut.ways.filter { $0.tags["piste:type"] == "downhill" }.count == area.downhill, "\(name)")
            #expect(cut.ways.filter(Self.isLiftLine).count == area.lifts, "\(name)")
            #expect(cut.nodes.count == area.nodes, "\(name)")
            #expect(cut.ways.allSatisfy { $0.nodeIDs.allSatisfy { cut.nodes[$0] != nil } }, "\(name): no vertex goes missing")
            seen += cut.ways.map(\.id)
        }
        #expect(seen.count == 764 && Set(seen).count == 764, "the three areas hold every way of the file, once")

        // Grandvalira on its own builds with the DEM, every vertex with an elevation.
        let grandvalira = osm.cut(to: areas["Grandvalira"]!.box)
        let result = try GraphBuilder.build(osm: grandvalira, parameters: BuildParameters(resortID: "grandvalira", manifestVersion: 0, snapshotDate: "2025-01-19"),
                                            elevation: try RealExtractTests.elevation(in: url.deletingLastPathComponent()))
        #expect(result.report.liftWays == 77)
        #expect(result.report.waysWithoutElevation == 0)
    }
}
