import Foundation
import MountainGraph
@testable import Summit
import Testing

/// What `summit resort fetch` accepts from Overpass, on small answers written
/// here: a way far from the box only when a relation with a way in the box
/// brought it in; every node its ways use; a run or a lift by the build's rules;
/// a remark only when it is no error. And the SRTM tiles a box needs.
@Suite struct CheckedOverpassAnswerTests {
    static let box = try! OSMBoundingBox(south: 46.0, west: 7.0, north: 46.1, east: 7.1)

    /// A run inside the box, and a nordic trail 0.5° east of it; `relation` lists both as the
    /// members of one ski route (`members` to list others).
    static func answer(relation: Bool, members: String = #"{"type": "way", "ref": 10, "role": ""}, {"type": "way", "ref": 11, "role": ""}"#,
                       remark: String? = nil, runNodes: String = "1, 2", runTags: String = #"{"piste:type": "downhill"}"#) -> [UInt8] {
        Array("""
            {"version": 0.6, "generator": "Overpass API 0.7.62.1", "osm3s": {"timestamp_osm_base": "2025-02-03T04:05:06Z"},
             "elements": [
              {"type": "node", "id": 1, "lat": 46.05, "lon": 7.05},
              {"type": "node", "id": 2, "lat": 46.04, "lon": 7.06},
              {"type": "node", "id": 3, "lat": 46.05, "lon": 7.6},
              {"type": "node", "id": 4, "lat": 46.06, "lon": 7.61},
              {"type": "way", "id": 10, "nodes": [\(runNodes)], "tags": \(runTags)},
              {"type": "way", "id": 11, "nodes": [3, 4], "tags": {"piste:type": "nordic"}}\(relation ? """
            ,
              {"type": "relation", "id": 20, "members": [\(members), {"type": "node", "ref": 1, "role": ""}],
               "tags": {"route": "ski"}}
            """ : "")
             ]\(remark.map { ",\n\"remark\": \"\($0)\"" } ?? "")
            }
            """.utf8)
    }

    static func refusal(_ bytes: [UInt8]) -> String {
        do {
            _ = try CheckedOverpassAnswer(bytes: bytes, box: box, from: "overpass.test")
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func aWayFarFromTheBoxIsTakenOnlyAsTheMemberOfARelationInTheBox() throws {
        let checked = try CheckedOverpassAnswer(bytes: Self.answer(relation: true), box: Self.box, from: "overpass.test")
        #expect(checked.answer.relationWayMembers == [[10, 11]] && checked.answer.relationCount == 1)
        #expect(checked.pistes == 1 && checked.lifts == 0, "the nordic trail is no run the graph is built from")
        #expect(checked.extract.snapshotDate == "2025-02-03" && checked.extract.bytes == Self.answer(relation: true))
        #expect(checked.extract.data.ways.count == 2, "the extract is the answer as read")
        let far = "is not for the box 46.0,7.0,46.1,7.1: 1 way and 0 nodes lie more than 0.05° outside it (way 11)"
        #expect(Self.refusal(Self.answer(relation: false)).contains(far))
        // A relation with no way in the box excuses nothing.
        #expect(Self.refusal(Self.answer(relation: true, members: #"{"type": "way", "ref": 11, "role": ""}"#)).contains(far))
    }

    @Test func anIncompleteOrEmptyAnswerIsRefused() {
        #expect(Self.refusal(Self.answer(relation: true, runNodes: "1, 2, 99")).contains("lacks 1 node its ways use (way 10 uses node 99)"))
        #expect(Self.refusal(Self.answer(relation: true, runTags: #"{"highway": "track"}"#))
            .contains("holds no run and no lift a graph could be built from"), "a nordic trail alone is no resort")
        let noSki = Array(String(decoding: Self.answer(relation: false, runTags: #"{"highway": "track"}"#), as: UTF8.self)
            .replacingOccurrences(of: #"{"piste:type": "nordic"}"#, with: #"{"aerialway": "pylon"}"#)
            .replacingOccurrences(of: #""lon": 7.6"#, with: #""lon": 7.06"#).replacingOccurrences(of: #""lon": 7.61"#, with: #""lon": 7.07"#).utf8)
        #expect(Self.refusal(noSki).contains("holds no run and no lift a graph could be built from in the box 46.0,7.0,46.1,7.1 (2 ways, 4 nodes)"),
                "\(Self.refusal(noSki))")
        #expect(Self.refusal(Array(#"{"version": 0.6, "elements": []}"#.utf8)).contains("carries no osm3s.timestamp_osm_base"))
        #expect(Self.refusal(Array("<html><body><p><strong>Error</strong>: line 1: parse error</p></body></html>".utf8))
            .contains("is an HTML or XML page, not Overpass JSON: \"Error: line 1: parse error\""))
    }

    @Test func onlyARemarkThatReportsAnErrorRefusesTheAnswer() {
        #expect(Self.refusal(Self.answer(relation: true, remark: "runtime remark: Timeout is rather long")) == "accepted")
        #expect(Self.refusal(Self.answer(relation: true, remark: "runtime error: Query run out of memory using about 2048 MB of RAM."))
            .contains("allow more with --max-mib"))
    }

    @Test func theTilesOfABoxAreNamedByTheirSouthWestCorners() {
        let names = { (s: Double, w: Double, n: Double, e: Double) in
            SRTMTile.corners(coveringSouth: s, west: w, north: n, east: e).map { SRTMTile.name(south: $0.south, west: $0.west) }
        }
        #expect(names(42.52, 1.63, 42.58, 1.73) == ["N42E001"])
        #expect(names(42.4, 1.95, 42.5, 2.05) == ["N42E001", "N42E002"])
        #expect(names(42.5, 1.5, 43.0, 2.0) == ["N42E001"], "a tile holds its north and east edges")
        #expect(names(-13.2, -72.6, -12.9, -72.4) == ["S14W073", "S13W073"])
        #expect(names(-0.5, -0.5, 0.5, 0.5) == ["S01W001", "S01E000", "N00W001", "N00E000"])
    }
}
