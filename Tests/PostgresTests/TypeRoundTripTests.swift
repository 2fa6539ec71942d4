import Foundation
import JSONDepth
import Postgres
import SummitTestSupport
import Testing

/// Every supported Swift type goes to the server and comes back unchanged.
@Suite struct TypeRoundTripTests {
    func roundTrip<T: PostgresEncodable & PostgresDecodable & Equatable>(
        _ value: T, as sqlType: String, on connection: PostgresConnection,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let query = PostgresQuery(unsafeSQL: "select $1::\(sqlType) as value", binds: [value])
        let back = try await connection.query(query).scalar(T.self)
        #expect(back == value, "\(sqlType)", sourceLocation: sourceLocation)
    }

    @Test func scalars() async throws {
        try await withFreshConnection { db async throws in
            for value in [true, false] { try await roundTrip(value, as: "boolean", on: db) }
            for value in [0, 1, -1, Int.max, Int.min] { try await roundTrip(value, as: "bigint", on: db) }
            for value in [Int64.max, Int64.min, 42] { try await roundTrip(value, as: "int8", on: db) }
            for value in [Int32.max, Int32.min, 7] { try await roundTrip(value, as: "int4", on: db) }
            for value in [Int16.max, Int16.min] { try await roundTrip(value, as: "int2", on: db) }
            for value in [0.0, -0.5, 1.0 / 3.0, 1e-300, 1.7976931348623157e308, .infinity, -.infinity] {
                try await roundTrip(value, as: "float8", on: db)
            }
            try await roundTrip(Float(3.25), as: "float4", on: db)
            for value in ["", "plain", "quotes ' \" and \\ backslash", "tab\tnew\nline", "ünïcødé 🎿⛷", "{a,b}", "NULL"] {
                try await roundTrip(value, as: "text", on: db)
            }
            try await roundTrip(UUID(), as: "uuid", on: db)
            try await roundTrip(Data(), as: "bytea", on: db)
            try await roundTrip(Data((0...255).map(UInt8.init)), as: "bytea", on: db)
            let nan = try await db.query("select \(Double.nan)::float8").scalar(Double.self)
            #expect(nan.isNaN)
        }
    }

    @Test func timestampsKeepMicroseconds() async throws {
        try await withFreshConnection { db async throws in
            let instants = [
                Date(timeIntervalSince1970: 0),
                Date(timeIntervalSince1970: 1_764_000_000.123456),
                Date(timeIntervalSince1970: -1_000_000_000.5),  // 1938
                Date(timeIntervalSince1970: 4_102_444_800.000001),  // 2100
            ]
            for date in instants {
                let back = try await db.query("select \(date)::timestamptz").scalar(Date.self)
                #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.000_001, "\(date)")
                let text = try await db.query("select (\(date)::timestamptz)::text").scalar(String.self)
                #expect(PostgresTimestamp.parse(text).map { abs($0.timeIntervalSince(date)) < 0.000_001 } == true)
            }
            // The server's own rendering of an instant with an offset and a date.
            let offset = try await db.query("select '2026-01-02 03:04:05.5+05:30'::timestamptz").scalar(Date.self)
            #expect(offset == Date(timeIntervalSince1970: 1_767_303_245.5))
            let day = try await db.query("select '2026-03-01'::date").scalar(Date.self)
            #expect(day == Date(timeIntervalSince1970: 1_772_323_200))
        }
    }

    @Test func arrays() async throws {
        try await withFreshConnection { db async throws in
            try await roundTrip([1, 2, 3], as: "int8[]", on: db)
            try await roundTrip([Int](), as: "int8[]", on: db)
            try await roundTrip(["a", "b c", "quote\"d", "back\\slash", "comma,", "{brace}", "NULL", ""], as: "text[]", on: db)
            try await roundTrip([true, false], as: "boolean[]", on: db)
            try await roundTrip([1.5, -2.25], as: "float8[]", on: db)
            try await roundTrip([UUID(), UUID()], as: "uuid[]", on: db)
            try await roundTrip([Data([0, 1, 2]), Data()], as: "bytea[]", on: db)
            try await roundTrip([Date(timeIntervalSince1970: 1_700_000_000.25)], as: "timestamptz[]", on: db)
            try await roundTrip([[1, 2], [3, 4]], as: "int8[]", on: db)
            try await roundTrip(["x", nil, "NULL"] as [String?], as: "text[]", on: db)
            let withNull = try await db.query("select array[1, null, 3]::int[]").scalar([Int?].self)
            #expect(withNull == [1, nil, 3])
            await #expect(throws: PostgresDecodingError.self) {
                _ = try await db.query("select array[1, null]::int[]").scalar([Int].self)
            }
        }
    }

    @Test func nullsDecodeOnlyAsOptionals() async throws {
        try await withFreshConnection { db async throws in
            let missing: Int? = nil
            #expect(try await db.query("select \(missing)::int").scalar(Int?.self) == nil)
            #expect(try await db.query("select \(PostgresNull())::text is null").scalar(Bool.self))
            await #expect(throws: PostgresDecodingError.self) {
                _ = try await db.query("select null::int").scalar(Int.self)
            }
            #expect(try await db.query("select \(Optional(5))::int").scalar(Int?.self) == 5)
        }
    }

    struct Settings: Codable, Equatable, Sendable {
        var theme: String
        var sizes: [Int]
        var updatedAt: Date
    }

    @Test func jsonThroughCodable() async throws {
        try await withFreshConnection { db async throws in
            let settings = Settings(theme: "dark", sizes: [7, 9], updatedAt: Date(timeIntervalSince1970: 1_700_000_000.5))
            let back = try await db.query("select \(PostgresJSON(settings))").scalar(PostgresJSON<Settings>.self)
            #expect(back.value == settings)
            let type = try await db.query("select pg_typeof(\(PostgresJSON(settings)))::text").scalar(String.self)
            #expect(type == "jsonb")
            let field = try await db.query("select \(PostgresJSON(settings)) ->> 'theme'").scalar(String.self)
            #expect(field == "dark")
        }
    }

    struct Profile: Decodable, Equatable {
        var id: UUID
        var displayName: String
        var skill: Int?
        var tags: [String]
        var settings: Settings
        var note: String?
    }

    @Test func rowsDecodeByColumnName() async throws {
        try await withFreshConnection { db async throws in
            let id = UUID()
            let rows = try await db.query("""
                select \(id)::uuid as id, 'Ann' as display_name, null::int as skill, array['a','b'] as tags,
                       '{"theme":"light","sizes":[8],"updatedAt":"2026-01-01T00:00:00+00:00"}'::jsonb as settings
                """)
            let profile = try #require(try rows.first(as: Profile.self))
            #expect(profile.id == id)
            #expect(profile.displayName == "Ann")
            #expect(profile.skill == nil)
            #expect(profile.tags == ["a", "b"])
            #expect(profile.settings.theme == "light")
            #expect(profile.note == nil)
            #expect(try rows[0].decode(String.self, column: "display_name") == "Ann")
            #expect(throws: PostgresError.self) { _ = try rows[0].decode(String.self, column: "missing") }
        }
    }

    /// JSON read into Codable values is checked for depth first: the refusal names
    /// the limit, where JSONDecoder alone would say only that it is not valid JSON.
    @Test func jsonNestedPastTheLimitIsRefusedByDepth() async throws {
        struct Row: Decodable {
            var settings: Settings
        }
        try await withFreshConnection { db async throws in
            let reason = "JSON does not match: " + JSONTooDeep(offset: 512).description
            let deep = try await db.query("select repeat('[', 100000) || repeat(']', 100000) as settings")
            let field = try #require(throws: PostgresDecodingError.self) { try deep.first(as: Row.self) }
            #expect(field.reason == reason)
            let value = try #require(throws: PostgresDecodingError.self) { try deep.scalar(PostgresJSON<Settings>.self) }
            #expect(value.reason == reason)
            #expect("\(value)".contains("more than 512 levels deep"))

            // Up to the limit it reads as before: the root object and 511 arrays in a member Settings ignores.
            let atLimit = #"{"theme":"dark","sizes":[7],"updatedAt":"2026-01-01T00:00:00+00:00","x":"#
                + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}"
            let rows = try await db.query("select \(atLimit)::jsonb as settings")
            #expect(try rows.first(as: Row.self)?.settings.theme == "dark")
            #expect(try rows.scalar(PostgresJSON<Settings>.self).value.sizes == [7])
        }
    }

    @Test func textWithNULIsRefusedBeforeSending() async throws {
        try await withFreshConnection { db async throws in
            let error = await #expect(throws: PostgresError.self) {
                try await db.query("select \("a\u{0}b")::text")
            }
            #expect(error?.code == .characterNotInRepertoire)
        }
    }
}
