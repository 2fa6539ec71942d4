import Foundation
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

    @Test func anEditedDraftWithAMisspeltKeyIsRefused() throws {
        let draft = ManifestDraft(
            resortID: "alpha", snapshotDate: "2025-01-01", osmSHA256: String(repeating: "a", count: 64),
            expectedTrailCount: 1, expectedLiftCount: 0, headlineTrailCount: nil, headlineLiftCount: nil,
            canonicalCountsReviewed: false, evidenceObservedAt: nil, evidenceURLs: [], validatorNotes: "",
            trails: [.init(name: "Lone Run", osmWayIDs: [901])], lifts: [], connectors: [], rendezvousPoints: [],
            proposals: [], unresolved: [])
        let bytes = try draft.fileBytes()
        #expect(try ManifestDraft.read(bytes, file: "draft.json") == draft)
        let misspelt = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"osm_way_ids\"", with: "\"osm_ways\"").utf8)
        let error = try #require(throws: CLIError.self) { try ManifestDraft.read(misspelt, file: "draft.json") }
        #expect(error.problem.contains("osm_ways"))
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
