import Foundation
import Testing
@testable import MountainGraph

@Suite("GeoJSON export")
struct GeoJSONTests {
    @Test("edges, nodes and rendezvous points become features; closed edges are marked")
    func export() throws {
        let manifest = CanonicalManifest(
            trails: [CanonicalTrail(name: "Main Street", osmWayIDs: [200])],
            rendezvousPoints: [CanonicalRendezvousPoint(anchorOSMNodeID: 1, kind: .lodge, displayName: "Base Lodge", confidence: 1, quality: 1)])
        let graph = try OSMFixture.smallMountain().build(manifest: manifest).graph
        let bytes = graph.geoJSON()
        #expect(bytes == graph.geoJSON())
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        #expect(object?["type"] as? String == "FeatureCollection")
        let features = try #require(object?["features"] as? [[String: Any]])
        #expect(features.count == graph.edges.count + graph.nodes.count + 1)
        let side = try #require(features.first { $0["id"] as? String == "t201" })
        let properties = try #require(side["properties"] as? [String: Any])
        #expect(properties["closed"] as? Bool == true)
        #expect(properties["difficulty"] as? String == "black")
        #expect(properties["stroke"] as? String == "#222222")
        let geometry = try #require(side["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
        #expect((geometry["coordinates"] as? [[Double]])?.count == 3)
        #expect(features.contains { ($0["properties"] as? [String: Any])?["name"] as? String == "Base Lodge" })
    }
}
