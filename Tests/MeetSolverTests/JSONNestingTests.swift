import JSONDepth
import Testing
@testable import MeetSolver

/// The forecast and status readers refuse documents nested deeper than
/// `JSONDepth.limit` by depth, where JSONDecoder and JSONSerialization alone
/// would say only that the data is not valid JSON.
@Suite("JSON nesting limit")
struct JSONNestingTests {
    static let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)

    @Test("an Open-Meteo forecast nested 100,000 deep is refused by depth; a flat one reads")
    func forecast() throws {
        let head = #"{"utc_offset_seconds":0,"hourly":"#
        #expect(throws: ForecastError(message: "the forecast is not readable: \(JSONTooDeep(offset: head.utf8.count + 511))")) {
            try ResortConditions(openMeteoJSON: Array((head + Self.deep + "}").utf8))
        }
        let flat = #"{"utc_offset_seconds":0,"elevation":1800,"current":{"time":1768381200,"temperature_2m":-3,"wind_speed_10m":5}}"#
        #expect(try ResortConditions(openMeteoJSON: Array(flat.utf8)).current.wind == 5)
    }

    @Test("a status sidecar nested 100,000 deep is refused by depth; a flat one reads")
    func status() throws {
        #expect(throws: StatusDecodingError("the status sidecar is not readable: \(JSONTooDeep(offset: 512))")) {
            try MountainStatus(json: Array(Self.deep.utf8))
        }
        let sha = String(repeating: "ab", count: 32)
        let flat = """
            {"resort_id":"fixture","manifest_version":3,"graph_version":"v15","content_sha256":"\(sha)",
             "observed_at":"2026-01-15T09:00:00Z","expires_at":1768471200,"source":"lift-feed",
             "edges":{"e:1_s0":{"is_open":false,"wait_minutes":null},"e:2_s0":{"is_open":true,"wait_minutes":4}}}
            """
        let status = try MountainStatus(json: Array(flat.utf8))
        #expect(status.datasetVersion.description == "m3-v15-\(sha)")
        #expect(status.edges["e:1_s0"]?.isOpen == false && status.edges["e:2_s0"]?.waitMinutes == 4)
    }
}
