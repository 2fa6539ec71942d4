import Digest
import Foundation
import JSONDepth
import MountainGraph
@testable import Summit
import Testing

/// Reading the operator's files: snapshot dates, elevation files, edited drafts.
@Suite struct ResortInputsTests {
    static let extract = """
        {"osm3s": {"timestamp_osm_base": "2025-01-19T21:21:36Z"}, "elements": [
          {"type": "node", "id": 1, "lat": 46.0, "lon": 7.0, "tags": {"ele": "2000"}},
          {"type": "node", "id": 2, "lat": 46.001, "lon": 7.001, "tags": {"ele": "1900"}},
          {"type": "way", "id": 901, "nodes": [1, 2], "tags": {"piste:type": "downhill", "name": "Lone Run"}}
        ]}
        """

    @Test func theSnapshotDateComesFromTheOptionThenTheDataThenTheName() throws {
        let bytes = Array(Self.extract.utf8)
        #expect(try OSMExtract(bytes: bytes, sourceName: "x-2020-02-02.json", snapshotDate: "2024-12-31").snapshotDate == "2024-12-31")
        #expect(try OSMExtract(bytes: bytes, sourceName: "x-2020-02-02.json", snapshotDate: nil).snapshotDate == "2025-01-19")
        let undated = Array(Self.extract.replacingOccurrences(of: "\"osm3s\": {\"timestamp_osm_base\": \"2025-01-19T21:21:36Z\"}, ", with: "").utf8)
        #expect(try OSMExtract(bytes: undated, sourceName: "okemo-vt-2024-09-21.ski.osm.json", snapshotDate: nil).snapshotDate == "2024-09-21")
        #expect(throws: CLIError.self) { try OSMExtract(bytes: undated, sourceName: "resort.json", snapshotDate: nil) }
        #expect(throws: CLIError.self) { try OSMExtract(bytes: bytes, sourceName: "x.json", snapshotDate: "2025-02-30") }
        let xml = Array("<osm><meta osm_base=\"2023-06-07T00:00:00Z\"/><node id=\"1\" lat=\"46\" lon=\"7\"/><node id=\"2\" lat=\"46.1\" lon=\"7\"/><way id=\"3\"><nd ref=\"1\"/><nd ref=\"2\"/><tag k=\"aerialway\" v=\"chair_lift\"/></way></osm>".utf8)
        let fromXML = try OSMExtract(bytes: xml, sourceName: "m.osm", snapshotDate: nil)
        #expect(fromXML.format == .osmXML && fromXML.snapshotDate == "2023-06-07")
    }

    static let pistes = """
        {"type": "FeatureCollection", "generator": "overpass-turbo", "timestamp": "2024-02-14T08:59:15Z", "features": [
          {"type": "Feature", "id": "way/10", "properties": {"@id": "way/10", "piste:type": "downhill", "name": "Lone Run"},
           "geometry": {"type": "LineString", "coordinates": [[7.0, 46.0], [7.001, 45.999]]}}
        ]}
        """
    static let lifts = """
        {"type": "FeatureCollection", "generator": "overpass-turbo", "timestamp": "2024-02-13T12:07:46Z", "features": [
          {"type": "Feature", "id": "way/20", "properties": {"@id": "way/20", "aerialway": "platter"},
           "geometry": {"type": "LineString", "coordinates": [[7.001, 45.999], [7.0, 46.0]]}},
          {"type": "Feature", "id": "way/30", "properties": {"@id": "way/30", "aerialway": "t-bar"},
           "geometry": {"type": "LineString", "coordinates": [[8.0, 47.0], [8.001, 47.001]]}}
        ]}
        """
    static let inputs = [("pistes.geojson", Array(pistes.utf8)), ("lifts.geojson", Array(lifts.utf8))]

    @Test func oneUnmodifiedFileIsStoredAsItIs() throws {
        let bytes = Array(Self.extract.utf8)
        let plain = try OSMExtract(inputs: [("x.json", bytes)], snapshotDate: nil, bbox: nil)
        #expect(plain.bytes == bytes && plain.sha256 == SHA256.hex(bytes) && plain.sourceName == "x.json" && plain.format == .overpassJSON)
        // A box that drops nothing leaves the file unmodified.
        let wide = try OSMExtract(inputs: [("x.json", bytes)], snapshotDate: nil, bbox: try OSMBoundingBox(south: 45, west: 6, north: 47, east: 8))
        #expect(wide.bytes == bytes && wide.sourceName == "x.json")
        let outside = #expect(throws: CLIError.self) {
            try OSMExtract(inputs: [("x.json", bytes)], snapshotDate: nil, bbox: try OSMBoundingBox(south: 10, west: 10, north: 11, east: 11))
        }
        #expect(outside?.problem.contains("no way of x.json has a vertex inside --bbox 10.0,10.0,11.0,11.0") == true)
    }

    @Test func geoJSONAndSeveralFilesAreStoredAsOneDeterministicDocument() throws {
        let merged = try OSMExtract(inputs: Self.inputs, snapshotDate: nil, bbox: nil)
        #expect(merged.snapshotDate == "2024-02-14", "the newest of the files' dates")
        #expect(merged.format == .overpassJSON)
        #expect(merged.sourceName == "lifts.geojson + pistes.geojson")
        #expect(merged.data.ways.map(\.id) == [10, 20, 30])
        #expect(merged.data.ways[1].nodeIDs == merged.data.ways[0].nodeIDs.reversed(), "the platter runs up the piste's vertices")
        // The same files in the other order: the same bytes.
        let reversed = try OSMExtract(inputs: Self.inputs.reversed(), snapshotDate: nil, bbox: nil)
        #expect(reversed.bytes == merged.bytes && reversed.sha256 == merged.sha256 && reversed.sha256 == SHA256.hex(merged.bytes))
        // The stored document is what builds read: it parses back to the same elements and names its sources.
        let stored = try OSMExtract(bytes: merged.bytes, sourceName: merged.sourceName, snapshotDate: merged.snapshotDate)
        #expect(stored.data.nodes == merged.data.nodes && stored.data.ways == merged.data.ways)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(merged.bytes)) as? [String: Any])
        let sources = try #require(document["sources"] as? [[String: Any]])
        #expect(sources.map { $0["name"] as? String } == ["lifts.geojson", "pistes.geojson"])
        #expect(sources.map { $0["sha256"] as? String } == [SHA256.hex(Array(Self.lifts.utf8)), SHA256.hex(Array(Self.pistes.utf8))])
        #expect(sources.map { $0["timestamp"] as? String } == ["2024-02-13T12:07:46Z", "2024-02-14T08:59:15Z"])
        #expect(document["bbox"] == nil)
        #expect(try OSMExtract(inputs: Self.inputs, snapshotDate: "2024-03-01", bbox: nil).snapshotDate == "2024-03-01")
        // One GeoJSON file on its own is stored as a document too.
        #expect(try OSMExtract(inputs: [Self.inputs[0]], snapshotDate: nil, bbox: nil).format == .overpassJSON)
    }

    @Test func aCutIsStoredWithItsBox() throws {
        let box = try OSMBoundingBox(south: 45.9, west: 6.9, north: 46.1, east: 7.1)
        let cut = try OSMExtract(inputs: Self.inputs, snapshotDate: nil, bbox: box)
        #expect(cut.data.ways.map(\.id) == [10, 20])
        #expect(cut.sourceName == "lifts.geojson + pistes.geojson cut to 45.9,6.9,46.1,7.1")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(cut.bytes)) as? [String: Any])
        #expect(document["bbox"] as? [String: Double] == ["south": 45.9, "west": 6.9, "north": 46.1, "east": 7.1])
        #expect(try OSMExtract(inputs: Self.inputs, snapshotDate: nil, bbox: box).sha256 == cut.sha256)
    }

    @Test func inputsThatCannotMakeOneSnapshotAreRefused() throws {
        let undated = Array(Self.pistes.replacingOccurrences(of: "\"timestamp\": \"2024-02-14T08:59:15Z\", ", with: "").utf8)
        let dateless = #expect(throws: CLIError.self) { try OSMExtract(inputs: [("pisteWay.geojson", undated)], snapshotDate: nil, bbox: nil) }
        #expect(dateless?.problem.hasPrefix("pisteWay.geojson carries no data date") == true)
        #expect(dateless?.fix?.contains("--snapshot-date") == true)
        let twice = #expect(throws: CLIError.self) { try OSMExtract(inputs: [Self.inputs[0], ("copy.geojson", Self.inputs[0].1)], snapshotDate: nil, bbox: nil) }
        #expect(twice?.problem.contains("are the same file") == true)
        let moved = Array(Self.lifts.replacingOccurrences(of: "\"way/20\"", with: "\"way/10\"").utf8)
        let differing = #expect(throws: CLIError.self) { try OSMExtract(inputs: [Self.inputs[0], ("lifts.geojson", moved)], snapshotDate: nil, bbox: nil) }
        #expect(differing?.problem.contains("way 10 differs between lifts.geojson and pistes.geojson (vertices)") == true, "\(differing?.problem ?? "")")
        let noID = Array(Self.pistes.replacingOccurrences(of: "\"id\": \"way/10\", \"properties\": {\"@id\": \"way/10\", ", with: "\"properties\": {").utf8)
        let anonymous = #expect(throws: CLIError.self) { try OSMExtract(inputs: [("p.geojson", noID)], snapshotDate: nil, bbox: nil) }
        #expect(anonymous?.problem.hasPrefix("p.geojson is not a readable OSM extract (GeoJSON feature #0 (no id): it has no OSM id") == true,
                "\(anonymous?.problem ?? "")")
    }

    @Test func calendarDatesOnly() {
        #expect(OSMExtract.isoDate("2024-02-29") == "2024-02-29")
        #expect(OSMExtract.isoDate("2023-02-29") == nil)
        #expect(OSMExtract.isoDate("2023-13-01") == nil)
        #expect(OSMExtract.isoDate("23-01-01") == nil)
    }

    @Test func elevationFilesAreRecognisedByNameAndChecked() throws {
        let map = try ElevationInput(fileName: "elev-2025-01-19.json", bytes: Array("{\"46.000000,7.000000\": 2000}".utf8))
        #expect(map.format == .elevationMapJSON)
        #expect(try map.source().elevation(at: .init(lat: 46, lon: 7)) == 2000)
        #expect(throws: CLIError.self) { try ElevationInput(fileName: "N46E007.hgt", bytes: [0, 1]) }
        #expect(throws: CLIError.self) { try ElevationInput(fileName: "terrain.tif", bytes: [0, 1]) }
    }

    static let loneRunDraft = ManifestDraft(
        resortID: "alpha", snapshotDate: "2025-01-01", osmSHA256: String(repeating: "a", count: 64),
        expectedTrailCount: 1, expectedLiftCount: 0, headlineTrailCount: nil, headlineLiftCount: nil,
        canonicalCountsReviewed: false, evidenceObservedAt: nil, evidenceURLs: [], validatorNotes: "",
        trails: [.init(name: "Lone Run", osmWayIDs: [901])], lifts: [], connectors: [], rendezvousPoints: [],
        proposals: [], unresolved: [])

    @Test func anEditedDraftWithAMisspeltKeyIsRefused() throws {
        let draft = Self.loneRunDraft
        let bytes = try draft.fileBytes()
        #expect(try ManifestDraft.read(bytes, file: "draft.json") == draft)
        let misspelt = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"osm_way_ids\"", with: "\"osm_ways\"").utf8)
        let error = try #require(throws: CLIError.self) { try ManifestDraft.read(misspelt, file: "draft.json") }
        #expect(error.problem.contains("osm_ways"))
    }

    /// The operator's files nested 100,000 deep are refused by depth, naming the
    /// file, the limit and what to do; the same files flat still read.
    @Test func filesNestedPastTheLimitAreRefusedByDepth() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let tooDeep = JSONTooDeep(offset: 512).description

        let draft = try #require(throws: CLIError.self) { try ManifestDraft.read(Array(deep.utf8), file: "draft.json") }
        #expect(draft.problem == "draft.json is too deep for a manifest draft (\(tooDeep))")
        #expect(draft.fix?.contains("summit resort review RESORT --out FILE") == true)
        let draftBytes = try Self.loneRunDraft.fileBytes()
        #expect(try ManifestDraft.read(draftBytes, file: "draft.json") == Self.loneRunDraft)

        let extract = try #require(throws: CLIError.self) {
            try OSMExtract(bytes: Array(deep.utf8), sourceName: "deep.json", snapshotDate: "2025-01-19")
        }
        #expect(extract.problem.contains("deep.json is not a readable OSM extract"))
        #expect(extract.problem.contains(JSONTooDeep(offset: 512).reason), "\(extract)")
        #expect(try OSMExtract(bytes: Array(Self.extract.utf8), sourceName: "x.json", snapshotDate: nil).data.ways.count == 1)

        let elevation = try #require(throws: CLIError.self) {
            try ElevationInput(fileName: "deep.json", bytes: Array(#"{"46.000000,7.000000":\#(deep)}"#.utf8))
        }
        #expect(elevation.description.contains(JSONTooDeep(offset: 533).reason), "\(elevation)")
    }

    /// What the RPCs answer is read with the same limit.
    @Test func answersNestedPastTheLimitAreRefusedByDepth() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONTooDeep(offset: 512)) { try JSONValue(parsing: deep) }
        #expect(throws: JSONTooDeep(offset: 512)) { try MeetRequestRow(json: deep) }
        #expect(SummitCLI.message(for: JSONTooDeep(offset: 512)) == JSONTooDeep(offset: 512).description)
        let flat = try JSONValue(parsing: #"{"status":"fetch","rows":[[1],{"a":null}]}"#)
        #expect(flat["status"].string == "fetch" && flat["rows"][1]["a"] == .null)
    }

    @Test func acceptedProposalsTakeFreshConnectorIds() throws {
        var draft = ManifestDraft(
            resortID: "alpha", snapshotDate: "2025-01-01", osmSHA256: "", expectedTrailCount: 0, expectedLiftCount: 0,
            headlineTrailCount: nil, headlineLiftCount: nil, canonicalCountsReviewed: false, evidenceObservedAt: nil,
            evidenceURLs: [], validatorNotes: "", trails: [], lifts: [], connectors: [], rendezvousPoints: [],
            proposals: try (1...3).map { number in
                try JSONDecoder().decode(DraftConnector.self, from: Data("""
                    {"number": \(number), "connector_id": 0, "kind": "pisteGap", "from_osm_node_id": \(number), "to_osm_node_id": 100,
                     "bidirectional": true, "distance_m": 5, "from_elevation_m": 0, "to_elevation_m": 0, "from_way_id": 1, "to_way_id": 2}
                    """.utf8))
            },
            unresolved: [])
        draft.accept(numbers: [2])
        draft.accept(numbers: [1, 3])
        #expect(draft.proposals.isEmpty)
        #expect(draft.connectors.map(\.fromOSMNodeID) == [2, 1, 3])
        #expect(Set(draft.connectors.map(\.connectorID)).count == 3, "ids are never reused")
        #expect(draft.connectors.allSatisfy { $0.connectorID >= 9_000_000_000_000 })
    }
}
