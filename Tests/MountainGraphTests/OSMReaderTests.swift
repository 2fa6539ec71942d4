import Testing
@testable import MountainGraph

@Suite("OSM readers")
struct OSMReaderTests {
    private let reference = try! OSMFixture.smallMountain().build().graph

    @Test("Overpass out body keeps ids, coordinates and tags")
    func outBody() throws {
        let osm = try OSMFixture.smallMountain().osm()
        #expect(osm.ways.map(\.id) == [100, 200, 201])
        #expect(osm.ways[1].nodeIDs == [2, 3, 4, 1])
        #expect(osm.ways[0].tags["name"] == "Summit Express")
        #expect(osm.node(2)?.tags["ele"] == "1500.0")
    }

    @Test("Overpass out geom (inline geometry, no node elements) builds the same graph")
    func outGeom() throws {
        let body = try OSMFixture.smallMountain().osm()
        func geometry(_ ids: [Int64]) -> String {
            ids.map { #"{"lat":\#(body.node($0)!.lat),"lon":\#(body.node($0)!.lon)}"# }.joined(separator: ",")
        }
        // Elevation comes from the nodes' ele tags in out body; supply it as a map here.
        var samples: [Coordinate: Double] = [:]
        for node in body.nodes.values { samples[Coordinate(lat: node.lat, lon: node.lon)] = Double(node.tags["ele"]!)! }
        let json = """
        {"version":0.6,"elements":[
        {"type":"way","id":201,"bounds":{"minlat":0},"nodes":[2,5,4],"geometry":[\(geometry([2, 5, 4]))],"tags":{"piste:type":"downhill","piste:difficulty":"advanced","name":"Side Trail"}},
        {"type":"way","id":100,"nodes":[1,2],"geometry":[\(geometry([1, 2]))],"tags":{"aerialway":"chair_lift","name":"Summit Express"}},
        {"type":"way","id":200,"nodes":[2,3,4,1],"geometry":[\(geometry([2, 3, 4, 1]))],"tags":{"piste:type":"downhill","piste:difficulty":"easy","name":"Main Street"}},
        {"type":"relation","id":9,"members":[],"tags":{"site":"piste"}}
        ]}
        """
        let osm = try OSMData(overpassJSON: Array(json.utf8))
        #expect(osm.ways.map(\.id) == [100, 200, 201])
        let graph = try GraphBuilder.build(osm: osm, parameters: OSMFixture.parameters, elevation: ElevationMap(samples: samples)).graph
        #expect(graph.canonicalJSON() == reference.canonicalJSON())
    }

    @Test("OSM XML builds the same graph")
    func xml() throws {
        let body = try OSMFixture.smallMountain().osm()
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<osm version="0.6" generator="test">"#]
        for id in body.nodes.keys.sorted() {
            let node = body.node(id)!
            lines.append(#"<node id="\#(id)" lat="\#(node.lat)" lon="\#(node.lon)"><tag k="ele" v="\#(node.tags["ele"]!)"/></node>"#)
        }
        for way in body.ways {
            lines.append(#"<way id="\#(way.id)">"#)
            lines += way.nodeIDs.map { #"<nd ref="\#($0)"/>"# }
            lines += way.tags.sorted { $0.key < $1.key }.map { #"<tag k="\#($0.key)" v="\#($0.value)"/>"# }
            lines.append("</way>")
        }
        lines.append(#"<relation id="5"><member type="way" ref="200" role=""/><tag k="route" v="piste"/></relation>"#)
        lines.append("</osm>")
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let osm = try OSMData(osmBytes: bytes)
        #expect(osm.ways.map(\.id) == [100, 200, 201])
        let graph = try GraphBuilder.build(osm: osm, parameters: OSMFixture.parameters).graph
        #expect(graph.canonicalJSON() == reference.canonicalJSON())
    }

    @Test("malformed input is refused with a reason")
    func malformed() {
        #expect(throws: OSMError.self) { try OSMData(overpassJSON: Array(#"{"elements":[{"type":"node","lat":1}]}"#.utf8)) }
        #expect(throws: OSMError.self) { try OSMData(overpassJSON: Array(#"{"nodes":[]}"#.utf8)) }
        #expect(throws: OSMError.self) { try OSMData(overpassJSON: Array(#"{"elements":[{"type":"node","id":1,"lat":95,"lon":0}]}"#.utf8)) }
        let conflicting = #"{"elements":[{"type":"node","id":1,"lat":1,"lon":1},{"type":"node","id":1,"lat":2,"lon":1}]}"#
        #expect(throws: OSMError.conflictingNode(id: 1)) { try OSMData(overpassJSON: Array(conflicting.utf8)) }
        #expect(throws: OSMError.self) { try OSMData(osmXML: Array("<osm><node id='1' lat='1'".utf8)) }
        do {
            _ = try OSMData(overpassJSON: Array(#"{"elements":[1,2"#.utf8))
        } catch {
            #expect("\(error)".contains("byte"))
        }
    }

    @Test("repeated nodes from `out body; >; out qt` are merged, keeping tags")
    func repeatedNodes() throws {
        let json = #"{"elements":[{"type":"node","id":1,"lat":1,"lon":1},{"type":"node","id":1,"lat":1,"lon":1,"tags":{"ele":"10"}}]}"#
        let osm = try OSMData(overpassJSON: Array(json.utf8))
        #expect(osm.node(1)?.tags["ele"] == "10")
    }
}
