import Foundation
import Testing
@testable import MountainGraph

/// overpass-turbo GeoJSON: ways without node ids, joined on coordinates.
@Suite("OSM GeoJSON reader")
struct OSMGeoJSONTests {
    /// A FeatureCollection of the given feature texts.
    static func collection(_ features: String..., timestamp: String? = nil) -> [UInt8] {
        let stamp = timestamp.map { "\"timestamp\": \"\($0)\", " } ?? ""
        return Array("{\"type\": \"FeatureCollection\", \"generator\": \"overpass-turbo\", \(stamp)\"features\": [\(features.joined(separator: ",\n"))]}".utf8)
    }

    static func line(_ id: String, _ tags: String, _ coordinates: String, idKey: String = "@id") -> String {
        let properties = idKey == "@id" ? "\"@id\": \"\(id)\", \(tags)" : tags
        let featureID = idKey == "@id" ? "" : "\"id\": \"\(id)\", "
        return "{\"type\": \"Feature\", \(featureID)\"properties\": {\(properties)}, \"geometry\": {\"type\": \"LineString\", \"coordinates\": \(coordinates)}}"
    }

    static func point(_ id: String, _ tags: String, _ lon: Double, _ lat: Double) -> String {
        let properties = tags.isEmpty ? "\"@id\": \"\(id)\"" : "\"@id\": \"\(id)\", \(tags)"
        return "{\"type\": \"Feature\", \"id\": \"\(id)\", \"properties\": {\(properties)}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(lon), \(lat)]}}"
    }

    static func derived(_ lat: Double, _ lon: Double) -> Int64 { OSMGeoJSON.derivedNodeID(lat: lat, lon: lon) }

    @Test("vertices with identical coordinates are one vertex, across ways")
    func sharedVerticesAreJoined() throws {
        let bytes = Self.collection(
            Self.line("way/10", "\"piste:type\": \"downhill\", \"name\": \"Upper\"", "[[12.1, 61.3], [12.1000001, 61.2999999], [12.1002, 61.2995]]"),
            Self.line("way/11", "\"piste:type\": \"downhill\"", "[[12.1002, 61.2995], [12.1004, 61.2990]]"),
            Self.line("way/20", "\"aerialway\": \"chair_lift\"", "[[12.1004, 61.2990], [12.1, 61.3]]", idKey: "id"))
        let osm = try OSMData(geoJSON: bytes)
        #expect(osm.ways.map(\.id) == [10, 11, 20])
        let upper = osm.ways[0], lower = osm.ways[1], lift = osm.ways[2]
        #expect(upper.nodeIDs.count == 3)
        #expect(upper.nodeIDs.last == lower.nodeIDs.first, "the runs meet on one vertex")
        #expect(lift.nodeIDs == [lower.nodeIDs.last!, upper.nodeIDs.first!], "the lift joins both ends")
        #expect(upper.nodeIDs[0] != upper.nodeIDs[1], "coordinates 1e-7° apart are distinct vertices")
        #expect(osm.nodes.count == 4)
        #expect(upper.nodeIDs[0] == Self.derived(61.3, 12.1))
        #expect(osm.node(upper.nodeIDs[0]) == OSMNode(id: upper.nodeIDs[0], lat: 61.3, lon: 12.1))
        #expect(upper.tags == ["piste:type": "downhill", "name": "Upper"], "@id is metadata, not a tag")
        #expect(lift.tags == ["aerialway": "chair_lift"])
    }

    @Test("node/<n> Point features name the vertex at exactly their coordinates, with their tags")
    func nodeFeaturesAreHonoured() throws {
        let bytes = Self.collection(
            Self.point("node/501", "\"aerialway\": \"station\", \"ele\": \"1450\"", 7.01, 46.02),
            Self.line("way/30", "\"aerialway\": \"gondola\"", "[[7.0, 46.0], [7.01, 46.02]]"),
            Self.point("node/502", "", 7.0, 46.0),
            Self.point("node/900", "\"natural\": \"peak\"", 7.5, 46.5))
        let osm = try OSMData(geoJSON: bytes)
        #expect(osm.ways[0].nodeIDs == [502, 501])
        #expect(osm.node(501)?.tags == ["aerialway": "station", "ele": "1450"])
        #expect(osm.node(900)?.tags == ["natural": "peak"], "a node on its own is kept")
        #expect(osm.nodes.count == 3, "no vertex needed a derived id")
        // A vertex only near a node feature is not that node.
        let near = Self.collection(Self.point("node/501", "", 7.01, 46.02),
                                   Self.line("way/30", "\"aerialway\": \"gondola\"", "[[7.0, 46.0], [7.0100001, 46.02]]"))
        #expect(try OSMData(geoJSON: near).ways[0].nodeIDs == [Self.derived(46.0, 7.0), Self.derived(46.02, 7.0100001)])
    }

    @Test("the small mountain as GeoJSON with node features builds the same graph as its Overpass JSON")
    func sameGraphAsOverpass() throws {
        let body = try OSMFixture.smallMountain().osm()
        var features: [String] = []
        for id in body.nodes.keys.sorted() {
            let node = body.node(id)!
            features.append(Self.point("node/\(id)", "\"ele\": \"\(node.tags["ele"]!)\"", node.lon, node.lat))
        }
        for way in body.ways {
            let tags = way.tags.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
            let coordinates = way.nodeIDs.map { "[\(body.node($0)!.lon), \(body.node($0)!.lat)]" }.joined(separator: ", ")
            features.append(Self.line("way/\(way.id)", tags, "[\(coordinates)]"))
        }
        let osm = try OSMData(geoJSON: Array("{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}".utf8))
        #expect(osm.nodes == body.nodes)
        #expect(osm.ways == body.ways)
        let graph = try GraphBuilder.build(osm: osm, parameters: OSMFixture.parameters).graph
        #expect(graph.canonicalJSON() == (try OSMFixture.smallMountain().build().graph.canonicalJSON()))
    }

    @Test("a Polygon's outer ring is a closed way; a one-polygon MultiPolygon too; tags are kept as they are")
    func polygons() throws {
        let bytes = Self.collection(
            #"{"type": "Feature", "properties": {"@id": "way/40", "aerialway": "station", "building": "yes", "ele": "485"}, "geometry": {"type": "Polygon", "coordinates": [[[12.0, 61.0], [12.001, 61.0], [12.001, 61.001], [12.0, 61.0]], [[12.0002, 61.0001], [12.0003, 61.0001], [12.0003, 61.0002], [12.0002, 61.0001]]]}}"#,
            #"{"type": "Feature", "id": "way/41", "properties": {"piste:type": "downhill", "area": "yes"}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[12.0, 61.0], [12.002, 61.0], [12.002, 61.002], [12.0, 61.0]]]]}}"#)
        let document = try OSMGeoJSON(bytes: bytes)
        #expect(document.ways.map(\.fromPolygon) == [true, true])
        #expect(document.ways[0].vertices.count == 4, "the hole is not part of the way")
        let osm = try OSMData(geoJSON: bytes)
        let station = osm.ways[0], area = osm.ways[1]
        #expect(station.nodeIDs.count == 4 && station.nodeIDs.first == station.nodeIDs.last, "closed")
        #expect(station.tags == ["aerialway": "station", "building": "yes", "ele": "485"])
        #expect(area.tags["area"] == "yes")
        #expect(area.nodeIDs.first == station.nodeIDs.first, "the rings share their first corner")
        #expect(osm.nodes.count == 5)
    }

    @Test("relations are skipped and counted; exporter metadata is not a tag; numbers and booleans are kept as text")
    func metadataAndRelations() throws {
        let bytes = Self.collection(
            #"{"type": "Feature", "id": "relation/7", "properties": {"@id": "relation/7", "site": "piste"}, "geometry": {"type": "MultiLineString", "coordinates": [[[1, 1], [2, 2]]]}}"#,
            #"{"type": "Feature", "id": "way/50", "properties": {"id": "way/50", "@relations": [{"role": "", "rel": 7}], "@timestamp": "2020-01-01", "piste:type": "downhill", "ele": 1200, "lit": true, "note": null}, "geometry": {"type": "LineString", "coordinates": [[1, 1, 1500], [1.001, 1.001]]}}"#,
            timestamp: "2024-02-14T08:59:15Z")
        let document = try OSMGeoJSON(bytes: bytes)
        #expect(document.skippedRelations == 1)
        #expect(document.timestamp == "2024-02-14T08:59:15Z")
        #expect(document.ways.map(\.id) == [50])
        #expect(document.ways[0].tags == ["piste:type": "downhill", "ele": "1200", "lit": "true"])
        #expect(document.ways[0].vertices == [Coordinate(lat: 1, lon: 1), Coordinate(lat: 1.001, lon: 1.001)], "a third number (elevation) is ignored")
    }

    @Test("unusable features are refused, naming the feature")
    func refusals() {
        func refusal(_ features: String...) -> String {
            do {
                _ = try OSMData(geoJSON: Self.collection(features.joined(separator: ",")))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let noID = refusal(#"{"type": "Feature", "properties": {"piste:type": "downhill"}, "geometry": {"type": "LineString", "coordinates": [[1, 1], [2, 2]]}}"#)
        #expect(noID.contains("feature #0 (no id)") && noID.contains("no OSM id"), "\(noID)")
        let numeric = refusal(#"{"type": "Feature", "id": 17, "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 1], [2, 2]]}}"#)
        #expect(numeric.contains("17 is not an OSM id"), "\(numeric)")
        let pointWay = refusal(Self.line("way/1", "\"a\": \"b\"", "[[1, 1], [2, 2]]"),
                               #"{"type": "Feature", "properties": {"@id": "way/2"}, "geometry": {"type": "Point", "coordinates": [1, 1]}}"#)
        #expect(pointWay.contains("feature #1 (way/2)") && pointWay.contains("not Point"), "\(pointWay)")
        let multiLine = refusal(#"{"type": "Feature", "id": "way/3", "properties": {}, "geometry": {"type": "MultiLineString", "coordinates": [[[1, 1], [2, 2]]]}}"#)
        #expect(multiLine.contains("way/3") && multiLine.contains("MultiLineString"), "\(multiLine)")
        let twoPolygons = refusal(#"{"type": "Feature", "id": "way/4", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[1, 1], [2, 2], [1, 2], [1, 1]]], [[[3, 3], [4, 4], [3, 4], [3, 3]]]]}}"#)
        #expect(twoPolygons.contains("MultiPolygon of 2 polygons"), "\(twoPolygons)")
        let nodeLine = refusal(#"{"type": "Feature", "id": "node/5", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 1], [2, 2]]}}"#)
        #expect(nodeLine.contains("node/5") && nodeLine.contains("needs Point"), "\(nodeLine)")
        let nested = refusal(#"{"type": "Feature", "id": "way/6", "properties": {"tags": {"piste:type": "downhill"}}, "geometry": {"type": "LineString", "coordinates": [[1, 1], [2, 2]]}}"#)
        #expect(nested.contains("property tags is an object"), "\(nested)")
        let swapped = refusal(Self.line("way/7", "\"a\": \"b\"", "[[61.3, 120.5], [61.4, 120.6]]"))
        #expect(swapped.contains("outside the globe"), "\(swapped)")
        let disagree = refusal(#"{"type": "Feature", "id": "way/8", "properties": {"@id": "way/9"}, "geometry": {"type": "LineString", "coordinates": [[1, 1], [2, 2]]}}"#)
        #expect(disagree.contains("differ"), "\(disagree)")
        let noGeometry = refusal(#"{"type": "Feature", "id": "way/10", "properties": {}, "geometry": null}"#)
        #expect(noGeometry.contains("no geometry"), "\(noGeometry)")
        let ambiguous = refusal(Self.point("node/1", "", 1, 1), Self.point("node/2", "", 1, 1), Self.line("way/11", "\"a\": \"b\"", "[[1, 1], [2, 2]]"))
        #expect(ambiguous.contains("way 11") && ambiguous.contains("nodes 1 and 2"), "\(ambiguous)")
        let tooFine = refusal(Self.line("way/12", "\"a\": \"b\"", "[[1.00000001, 1], [1.00000002, 1]]"))
        #expect(tooFine.contains("equal at 7 decimals"), "\(tooFine)")
        #expect(throws: OSMError.notGeoJSON("its type is Feature")) {
            try OSMGeoJSON(bytes: Array(#"{"type": "Feature", "features": []}"#.utf8))
        }
        #expect(throws: OSMError.self) { try OSMGeoJSON(bytes: Array(#"{"type": "FeatureCollection", "features": [{"type": "Feature""#.utf8)) }
    }

    @Test("derived node ids: positive, one per 7-decimal point, exact through JSON")
    func derivedNodeIDs() throws {
        let corners = [(-90.0, -180.0), (-90.0, 180.0), (90.0, -180.0), (90.0, 180.0), (0.0, 0.0), (-0.0, -0.0)]
        let ids = corners.map { Self.derived($0.0, $0.1) }
        #expect(ids[0] == OSMGeoJSON.derivedNodeIDBase)
        #expect(ids[3] == 8_480_000_005_400_000_000)
        #expect(ids.allSatisfy { $0 >= OSMGeoJSON.derivedNodeIDBase && $0 <= Int64.max })
        #expect(ids[4] == ids[5], "-0 and 0 are one point")
        // Neighbours one step apart in either direction differ, and each decodes to its point.
        for (lat, lon) in [(61.3195517, 12.190768), (-33.9, 151.2), (37.6427499, -119.0316519), (89.9999999, 179.9999999)] {
            let id = Self.derived(lat, lon)
            let neighbours = [Self.derived(lat + 1e-7, lon), Self.derived(lat - 1e-7, lon), Self.derived(lat, lon + 1e-7), Self.derived(lat, lon - 1e-7)]
            #expect(Set(neighbours + [id]).count == 5)
            #expect(OSMGeoJSON.coordinate(ofDerivedNodeID: id) == Coordinate(lat: lat, lon: lon))
        }
        #expect(OSMGeoJSON.coordinate(ofDerivedNodeID: 11_807_551_123) == nil, "a real OSM id is not a derived one")

        // Foundation's JSON coders keep them exact.
        struct Row: Codable, Equatable { var id: Int64 }
        let row = Row(id: ids[3])
        let encoded = try JSONEncoder().encode(row)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"id":8480000005400000000}"#)
        #expect(try JSONDecoder().decode(Row.self, from: encoded) == row)
        #expect(try JSONDecoder().decode(Row.self, from: Data(#"{"id": 8480000005400000001}"#.utf8)).id == 8_480_000_005_400_000_001)
    }

    @Test("formats are told apart by their first byte and top-level keys")
    func formatDetection() {
        #expect(OSMFormat.detect(Array("  <?xml version=\"1.0\"?><osm/>".utf8)) == .osmXML)
        #expect(OSMFormat.detect(Array(#"{"version": 0.6, "osm3s": {"a": [1, {"b": "features"}]}, "elements": []}"#.utf8)) == .overpassJSON)
        #expect(OSMFormat.detect(Array(#"{"type": "FeatureCollection", "generator": "overpass-turbo"}"#.utf8)) == .geoJSON)
        #expect(OSMFormat.detect(Array(#"{"generator": "x", "features": [{"type": "Feature"#.utf8)) == .geoJSON, "decided before the truncation")
        #expect(OSMFormat.detect(Array("[1, 2]".utf8)) == .overpassJSON)
        // init(osmBytes:) reads all three.
        #expect((try? OSMData(osmBytes: Self.collection(Self.line("way/1", "\"a\": \"b\"", "[[1, 1], [2, 2]]"))))?.ways.count == 1)
    }
}

@Suite("Merging snapshots")
struct OSMMergeTests {
    static let pistes = OSMGeoJSONTests.collection(
        OSMGeoJSONTests.line("way/10", "\"piste:type\": \"downhill\"", "[[12.1, 61.3], [12.1002, 61.2995]]"),
        OSMGeoJSONTests.line("way/11", "\"piste:type\": \"downhill\"", "[[12.1002, 61.2995], [12.1004, 61.2990]]"))
    static let lifts = OSMGeoJSONTests.collection(
        OSMGeoJSONTests.line("way/20", "\"aerialway\": \"platter\"", "[[12.1004, 61.2990], [12.1, 61.3]]"),
        OSMGeoJSONTests.line("way/10", "\"piste:type\": \"downhill\"", "[[12.1, 61.3], [12.1002, 61.2995]]"))

    static func merge(_ inputs: [(String, [UInt8])]) throws -> OSMData {
        try OSMData(merging: inputs.map { ($0.0, try OSMInput(bytes: $0.1)) })
    }

    @Test("two exports merge: a lift in one ends on piste vertices of the other; a way in both is one way")
    func twoFiles() throws {
        let osm = try Self.merge([("pistes.geojson", Self.pistes), ("lifts.geojson", Self.lifts)])
        #expect(osm.ways.map(\.id) == [10, 11, 20])
        #expect(osm.nodes.count == 3)
        #expect(osm.ways[2].nodeIDs == [osm.ways[1].nodeIDs[1], osm.ways[0].nodeIDs[0]])
        let reversed = try Self.merge([("lifts.geojson", Self.lifts), ("pistes.geojson", Self.pistes)])
        #expect(reversed.ways == osm.ways && reversed.nodes == osm.nodes, "the order of the files does not matter")
    }

    @Test("a GeoJSON vertex on a node of an Overpass file takes that node's id")
    func mixedFormats() throws {
        let overpass = Array(#"{"elements": [{"type": "node", "id": 77, "lat": 61.3, "lon": 12.1, "tags": {"aerialway": "station"}}, {"type": "node", "id": 78, "lat": 61.31, "lon": 12.1}, {"type": "way", "id": 30, "nodes": [77, 78], "tags": {"aerialway": "t-bar"}}]}"#.utf8)
        let osm = try Self.merge([("pistes.geojson", Self.pistes), ("lift.json", overpass)])
        #expect(osm.ways.first { $0.id == 10 }?.nodeIDs.first == 77)
        #expect(osm.node(77)?.tags == ["aerialway": "station"])
    }

    @Test("the same way with other content in two files is refused, naming it and both files")
    func differingWays() {
        let moved = OSMGeoJSONTests.collection(OSMGeoJSONTests.line("way/10", "\"piste:type\": \"downhill\"", "[[12.1, 61.3], [12.1003, 61.2995]]"))
        let retagged = OSMGeoJSONTests.collection(OSMGeoJSONTests.line("way/10", "\"piste:type\": \"nordic\"", "[[12.1, 61.3], [12.1002, 61.2995]]"))
        #expect(throws: OSMError.differingElement("way 10", aspect: "vertices", first: "a.geojson", second: "b.geojson")) {
            try Self.merge([("a.geojson", Self.pistes), ("b.geojson", moved)])
        }
        #expect(throws: OSMError.differingElement("way 10", aspect: "tags", first: "a.geojson", second: "b.geojson")) {
            try Self.merge([("a.geojson", Self.pistes), ("b.geojson", retagged)])
        }
        let nodeA = Array(#"{"elements": [{"type": "node", "id": 5, "lat": 1, "lon": 1}]}"#.utf8)
        let nodeB = Array(#"{"elements": [{"type": "node", "id": 5, "lat": 1, "lon": 1.5}]}"#.utf8)
        let error = #expect(throws: OSMError.self) { try Self.merge([("a.json", nodeA), ("b.json", nodeB)]) }
        #expect(error?.description.contains("node 5 differs between a.json and b.json (position)") == true)
    }
}
