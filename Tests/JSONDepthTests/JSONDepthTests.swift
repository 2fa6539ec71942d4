import Foundation
import JSONDepth
import Testing

/// The one nesting check every JSON reader runs first.
@Suite struct JSONDepthTests {
    static func nested(_ depth: Int, open: String = "[", close: String = "]", inner: String = "") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    @Test func aHundredThousandLevelsAreRefusedWhereTheLimitIsPassed() {
        #expect(throws: JSONTooDeep(offset: JSONDepth.limit)) { try JSONDepth.check(Self.nested(100_000).utf8) }
        #expect(throws: JSONTooDeep(offset: 5 * JSONDepth.limit)) {
            try JSONDepth.check(Self.nested(100_000, open: #"{"a":"#, close: "}", inner: "1").utf8)
        }
    }

    @Test func theLimitItselfIsRead() throws {
        #expect(JSONDepth.limit == 512)
        try JSONDepth.check(Self.nested(JSONDepth.limit).utf8)
        #expect(throws: JSONTooDeep(offset: JSONDepth.limit)) { try JSONDepth.check(Self.nested(JSONDepth.limit + 1).utf8) }
    }

    @Test func theLimitIsFoundationsOwn() throws {
        // The readers in front of Foundation must not refuse what it reads, nor read what it refuses.
        _ = try JSONSerialization.jsonObject(with: Data(Self.nested(JSONDepth.limit).utf8))
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(Self.nested(JSONDepth.limit + 1).utf8)) }
    }

    @Test func bracketsInStringsDoNotCount() throws {
        let brackets = String(repeating: "[{", count: 1_000)
        try JSONDepth.check(#"{"a": "\#(brackets)", "b": ["\"[[[", "\\", "\u005b"]}"#.utf8)
        // An escaped quote does not end the string; an escaped backslash before a quote does.
        try JSONDepth.check(#"["\"\#(brackets)"]"#.utf8)
        #expect(throws: JSONTooDeep.self) { try JSONDepth.check((#"["\\""# + "," + Self.nested(600) + "]").utf8) }
    }

    @Test func depthCountsNestingNotBrackets() throws {
        // Many arrays side by side are shallow.
        try JSONDepth.check(("[" + Array(repeating: Self.nested(500), count: 300).joined(separator: ",") + "]").utf8)
        // Stray closers cannot pay for deeper nesting later on.
        #expect(throws: JSONTooDeep(offset: 1_000 + JSONDepth.limit)) {
            try JSONDepth.check((String(repeating: "]", count: 1_000) + Self.nested(600)).utf8)
        }
    }

    @Test func everyByteSequenceIsChecked() throws {
        let deep = Self.nested(100_000)
        #expect(throws: JSONTooDeep.self) { try JSONDepth.check(Array(deep.utf8)) }
        #expect(throws: JSONTooDeep.self) { try JSONDepth.check(Data(deep.utf8)) }
        #expect(throws: JSONTooDeep.self) { try JSONDepth.check(AnySequence(deep.utf8)) }
        try JSONDepth.check(Data(#"{"elements": [[1, 2], {"tags": {}}]}"#.utf8))
        try JSONDepth.check([UInt8]())
    }

    @Test func theErrorSaysWhatIsWrongAndWhatToDo() {
        let error = JSONTooDeep(offset: 512)
        #expect(error.description.contains("at byte 512"))
        #expect(error.reason.contains("more than 512 levels"))
        #expect(error.reason.contains("flatten"))
    }
}
