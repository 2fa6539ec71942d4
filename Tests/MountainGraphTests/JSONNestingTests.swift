import JSONDepth
import Testing
@testable import MountainGraph

/// Every reader on the JSON scanner refuses documents nested deeper than
/// `JSONDepth.limit` with the same reason, before it recurses, and reads
/// anything up to the limit.
@Suite("JSON nesting limit")
struct JSONNestingTests {
    static let deep = nested(100_000)

    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// The scanner's error for a document whose level past the limit opens at `offset`.
    static func tooDeep(at offset: Int) -> JSONError {
        JSONError(message: JSONTooDeep(offset: offset).reason, offset: offset)
    }

    @Test("the generic reader (graph documents) refuses 100,000 levels and reads 512")
    func value() throws {
        #expect(throws: Self.tooDeep(at: 512)) { try JSONValue.parse(Array(Self.deep.utf8)) }
        var innermost = try JSONValue.parse(Array(Self.nested(JSONDepth.limit).utf8))
        var depth = 0
        while case .array(let elements) = innermost {
            depth += 1
            innermost = elements.first ?? .null
        }
        #expect(depth == JSONDepth.limit)
    }

    @Test("canonical graph JSON nested 100,000 deep is not JSON, and says why")
    func canonicalGraph() throws {
        let document = #"{"edges":"# + Self.deep + "}"
        #expect(throws: IngressError.notJSON(Self.tooDeep(at: 9 + 511))) {
            try MountainGraph.decodeCanonicalJSON(Array(document.utf8))
        }
        do {
            _ = try MountainGraph.decodeCanonicalJSON(Array(document.utf8))
        } catch {
            #expect(error.description.contains("more than 512 levels"), "\(error)")
            #expect(error.description.contains("flatten its nesting"), "\(error)")
        }
        let graph = try OSMFixture.smallMountain().build().graph
        #expect(try MountainGraph.decodeCanonicalJSON(graph.canonicalJSON()) == graph)
    }

    @Test("an Overpass extract refuses 100,000 levels anywhere: skipped, in an element, or as the document")
    func overpass() throws {
        let skipped = #"{"version":0.6,"elements":[],"remark":"# + Self.deep + "}"
        #expect(throws: OSMError.json(Self.tooDeep(at: 38 + 511))) { try OSMData(overpassJSON: Array(skipped.utf8)) }
        let inElement = #"{"elements":[{"type":"relation","id":1,"members":"# + Self.deep + "}]}"
        #expect(throws: OSMError.json(Self.tooDeep(at: 49 + 509))) { try OSMData(overpassJSON: Array(inElement.utf8)) }
        #expect(throws: OSMError.json(Self.tooDeep(at: 512))) { try OSMData(osmBytes: Array(Self.deep.utf8)) }
        do {
            _ = try OSMData(overpassJSON: Array(skipped.utf8))
        } catch {
            #expect(error.description == "OSM JSON: invalid JSON at byte 549: " + JSONTooDeep(offset: 549).reason)
        }

        // Up to the limit, a skipped member is skipped and the rest read.
        let atLimit = #"{"elements":[{"type":"node","id":7,"lat":46,"lon":7}],"remark":"# + Self.nested(JSONDepth.limit - 1) + "}"
        let osm = try OSMData(overpassJSON: Array(atLimit.utf8))
        #expect(osm.node(7)?.lat == 46)
    }

    @Test("an elevation map refuses 100,000 levels and reads a flat map")
    func elevationMap() throws {
        let document = #"{"46.000000,7.000000":"# + Self.deep + "}"
        #expect(throws: ElevationError.unreadableMap(Self.tooDeep(at: 22 + 511).description)) {
            try ElevationMap(json: Array(document.utf8))
        }
        let map = try ElevationMap(json: Array(#"{"46.000000,7.000000": 1000.5}"#.utf8))
        #expect(map.elevation(at: Coordinate(lat: 46, lon: 7)) == 1000.5)
    }
}
