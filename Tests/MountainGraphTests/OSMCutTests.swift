import Testing
@testable import MountainGraph

/// Cutting one resort out of an extract that holds several.
@Suite("Cutting snapshots to a box")
struct OSMCutTests {
    @Test("a cut keeps every way with a vertex in the box, whole, and the nodes in the box")
    func cut() throws {
        var fixture = OSMFixture()
        fixture.node(1, east: 0, north: 0)
        fixture.node(2, east: 0, north: 5000)        // outside, on way 100 that reaches in
        fixture.node(3, east: 100, north: 100)
        fixture.node(4, east: 9000, north: 9000)     // outside, on way 101 only
        fixture.node(5, east: 9100, north: 9000)
        fixture.node(6, east: 50, north: 50, tags: ["aerialway": "station"])   // inside, on its own
        fixture.node(7, east: 9500, north: 9500, tags: ["aerialway": "station"])
        fixture.run(100, [3, 1, 2])
        fixture.run(101, [4, 5])
        let osm = try fixture.osm()
        let box = try OSMBoundingBox(south: 45.999, west: 6.999, north: 46.002, east: 7.002)
        let inside = osm.cut(to: box)
        #expect(inside.ways.map(\.id) == [100])
        #expect(Set(inside.nodes.keys) == [1, 2, 3, 6], "way 100 keeps its outside vertex 2")
        #expect(inside.ways[0] == osm.ways[0])
        #expect(osm.cut(to: try OSMBoundingBox(south: -90, west: -180, north: 90, east: 180)).nodes == osm.nodes)
    }

    @Test("a box off the globe, empty or upside down is refused, saying how to write it")
    func badBoxes() {
        func message(_ s: Double, _ w: Double, _ n: Double, _ e: Double) -> String {
            do { _ = try OSMBoundingBox(south: s, west: w, north: n, east: e); return "accepted" } catch { return "\(error)" }
        }
        #expect(message(42.58, 1.588, 42.518, 1.738).contains("south edge 42.58 is not below its north edge 42.518; write the box as S,W,N,E"))
        #expect(message(42.5, 1.7, 42.6, 1.6).contains("west edge 1.7 is not west of its east edge 1.6"))
        #expect(message(42.5, 1.6, 42.5, 1.7).contains("not below"), "an empty box")
        #expect(message(-91, 1, 42, 2).contains("south edge -91.0 is not a latitude"))
        #expect(message(1, 1, 2, 181).contains("east edge 181.0 is not a longitude"))
        #expect(message(1, .nan, 2, 3).contains("west edge"))
    }
}
