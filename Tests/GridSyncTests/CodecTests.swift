import Foundation
import GridSync
import Postgres
import SummitTestSupport
import Testing

/// The phone's ids, times and JSON agree with the server's to the last bit.
@Suite struct CodecTests {
    @Test func deterministicIDsAreTheServersV5Ids() async throws {
        try await withFreshConnection { db in
            let user = UUID(uuidString: "3f0b1c2d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")!
            let names: [(String, UUID)] = [
                ("grid:starter:small-joys", DeterministicID.starterGrid("small-joys")),
                ("user_grid:\(user.lowercased):small-joys", DeterministicID.starterShelfBoard(user: user, key: "small-joys")),
                ("square:\(user.lowercased):24", DeterministicID.square(board: user, position: 24)),
                ("interest:\(user.lowercased):cooking", DeterministicID.interest(user: user, slug: "cooking")),
                ("rescue:\(user.lowercased)", DeterministicID.rescue(moment: user)),
                ("entry:\(user.lowercased):\(user.lowercased)", DeterministicID.groupEntry(moment: user, user: user)),
            ]
            for (name, id) in names {
                let server = try await db.query("select private.v5(\(name))").scalar(UUID.self)
                #expect(server == id, "\(name)")
            }
        }
    }

    @Test func timestampsKeepEveryMicrosecondBothWays() throws {
        let cases = ["2026-01-02T03:04:05.123456+00:00", "2026-01-02T03:04:05Z", "2026-01-02 05:04:05.5+02",
                     "1999-12-31T23:59:59.999999-01:30", "2026-01-02"]
        let expected = ["2026-01-02T03:04:05.123456Z", "2026-01-02T03:04:05.000000Z", "2026-01-02T03:04:05.500000Z",
                        "2000-01-01T01:29:59.999999Z", "2026-01-02T00:00:00.000000Z"]
        for (text, iso) in zip(cases, expected) {
            let stamp = try #require(Timestamp(parsing: text), "\(text)")
            #expect(stamp.iso == iso)
            #expect(Timestamp(parsing: stamp.iso) == stamp)
        }
        #expect(Timestamp(parsing: "2026-13-01") == nil)
        #expect(Timestamp(parsing: "yesterday") == nil)
    }

    @Test func jsonKeepsIntegersApartAndRoundTripsText() throws {
        let text = #"{"a":7,"b":7.5,"c":"é\n\"q\"","d":[true,null,{"e":-12}],"f":"\ud83d\ude00"}"#
        let json = try JSON(parsing: text)
        #expect(json["a"] == .integer(7) && json["b"] == .number(7.5))
        #expect(json["c"].string == "é\n\"q\"")
        #expect(json["d"][2]["e"].int == -12)
        #expect(json["f"].string == "😀")
        #expect(try JSON(parsing: json.text) == json)
        #expect(throws: JSONSyntaxError.self) { try JSON(parsing: #"{"a":}"#) }
    }

    @Test func jsonNestedPastTheLimitIsRefusedBeforeTheReaderRecurses() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        // The level past 512 opens at byte 512 of the bare array, and at 8 + 511 inside `{"rows":`.
        for (text, offset) in [(deep, 512), (#"{"rows":"# + deep + "}", 519)] {
            let error = try #require(throws: JSONSyntaxError.self) { try JSON(parsing: text) }
            #expect(error.offset == offset)
            #expect(error.description.contains("more than 512 levels deep"), "\(error)")
            #expect(error.description.contains("flatten its nesting"), "\(error)")
        }
        // Up to the limit the reader reads.
        let atLimit = String(repeating: "[", count: 512) + "7" + String(repeating: "]", count: 512)
        var value = try JSON(parsing: atLimit)
        for _ in 0..<512 { value = value[0] }
        #expect(value == .integer(7))
    }
}
