import Foundation
import Testing
@testable import MountainGraph

/// The Overpass JSON a merged or cut snapshot is stored as.
@Suite("Overpass JSON writer")
struct OverpassWriterTests {
    static let header = OverpassDocumentHeader(generator: "test", timestampOSMBase: "2024-02-14T00:00:00Z", note: "a \"note\"",
                                               sources: [.init(name: "a.geojson", format: .geoJSON, sha256: String(repeating: "a", count: 64),
                                                               byteCount: 10, timestamp: nil)],
                                               bbox: try! OSMBoundingBox(south: 1, west: 2, north: 3, east: 4))

    @Test("the Overpass JSON written from a snapshot reads back to the same elements, in the same bytes every time")
    func overpassRoundTrip() throws {
        let osm = try OSMFixture.smallMountain().osm()
        let bytes = osm.overpassJSON(Self.header)
        #expect(bytes == osm.overpassJSON(Self.header))
        let reread = try OSMData(overpassJSON: bytes)
        #expect(reread.nodes == osm.nodes && reread.ways == osm.ways)
        #expect(OSMFormat.detect(bytes) == .overpassJSON)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect((object["osm3s"] as? [String: Any])?["timestamp_osm_base"] as? String == "2024-02-14T00:00:00Z")
        #expect((object["sources"] as? [[String: Any]])?.first?["format"] as? String == "geojson")
        #expect((object["bbox"] as? [String: Double]) == ["south": 1, "west": 2, "north": 3, "east": 4])
        #expect(object["note"] as? String == "a \"note\"")
        // One element a line, as Overpass writes them.
        #expect(String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("{\"id\":") }.count == osm.nodes.count + osm.ways.count)
    }

    @Test("derived node ids go through the written document exactly")
    func derivedIDs() throws {
        let ids = [OSMGeoJSON.derivedNodeID(lat: -90, lon: -180), OSMGeoJSON.derivedNodeID(lat: 90, lon: 180)]
        let osm = OSMData(nodes: [ids[1]: OSMNode(id: ids[1], lat: 90, lon: 180), ids[0]: OSMNode(id: ids[0], lat: -90, lon: -180)],
                          ways: [OSMWay(id: 1, nodeIDs: [ids[0], ids[1]])])
        let bytes = osm.overpassJSON(Self.header)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#"{"id":1,"nodes":[2000000000000000000,8480000005400000000],"type":"way"}"#))
        let reread = try OSMData(overpassJSON: bytes)
        #expect(reread.ways == osm.ways && reread.nodes == osm.nodes)
    }
}
