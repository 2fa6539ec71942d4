import Testing
@testable import MountainGraph

@Suite("Canonical JSON")
struct CanonicalJSONTests {
    private func text(_ value: Double) -> String {
        var bytes: [UInt8] = []
        CanonicalNumber.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("numbers print like ECMAScript Number.prototype.toString", arguments: [
        (5.0, "5"), (-0.0, "0"), (0.1, "0.1"), (-1.4748116, "-1.4748116"), (42.5424, "42.5424"),
        (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (0.000001, "0.000001"), (123.456, "123.456"),
        (9_007_199_254_740_992.0, "9007199254740992"), (1.2345678901234568e20, "123456789012345680000"),
        (1e21, "1e+21"), (1.7976931348623157e308, "1.7976931348623157e+308"), (2106.25, "2106.25"),
    ])
    func numbers(value: Double, expected: String) {
        #expect(text(value) == expected)
    }

    @Test("keys are written in UTF-8 byte order; strings escape only what JSON requires")
    func writer() {
        var w = CanonicalJSONWriter()
        w.beginObject()
        w.key("Z"); w.string("quote \" backslash \\ tab \t é")
        w.key("a"); w.null()
        w.key("b")
        w.beginArray(); w.integer(1); w.bool(true); w.number(2.5); w.endArray()
        w.endObject()
        #expect(String(decoding: w.bytes, as: UTF8.self)
                == #"{"Z":"quote \" backslash \\ tab \u0009 é","a":null,"b":[1,true,2.5]}"#)
    }

    @Test("the scanner reads escapes, surrogate pairs and rejects bad JSON")
    func scanner() throws {
        let value = try JSONValue.parse(Array(#"{"s":"a\u00e9\ud83d\ude00\n","n":[-0.5e2,1E3],"t":true}"#.utf8))
        #expect(value["s"] == .string("aé😀\n"))
        #expect(value["n"] == .array([.number(-50), .number(1000)]))
        for bad in [#"{"a":01}"#, #"{"a":1,}"#, #"{"a":"\ud800"}"#, "[1] 2", #"{"a":tru}"#, "{\"a\":\"\u{1}\"}"] {
            #expect(throws: JSONError.self) { try JSONValue.parse(Array(bad.utf8)) }
        }
    }
}
