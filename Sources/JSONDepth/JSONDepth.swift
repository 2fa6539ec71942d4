/// How deep arrays and objects may nest in any JSON Summit reads, and the one
/// check of it that every reader runs before it parses.
///
/// The hand-written readers recurse once per level, so a document nested a few
/// thousand levels deep (16 KB of `[`) overflowed the stack. Foundation's
/// readers stop at the same limit without crashing, but JSONDecoder says only
/// that the data is not valid JSON, and JSONSerialization's reason is lost
/// wherever only its localizedDescription is shown. The check here is a loop
/// with a counter: it never recurses, whatever it reads.
public enum JSONDepth {
    /// 512 levels. Foundation's JSONSerialization and JSONDecoder on Linux
    /// (Swift 6.3) read 512 levels and refuse 513, so every reader, hand-written
    /// or Foundation, draws the line in the same place. No document Summit reads
    /// or writes nests more than about six levels, and 512 frames of the
    /// recursive readers (JSONScanner overflowed its thread's 8 MiB stack at
    /// about 8,000) stay far inside the stack of any thread they run on.
    public static let limit = 512

    /// Throws `JSONTooDeep` when arrays and objects in `bytes` nest deeper than
    /// `limit`. Brackets inside strings (escapes included) do not count. The
    /// rest of the syntax is left to the reader that follows: this check only
    /// makes sure that reader never goes deeper than `limit`.
    @inlinable
    public static func check<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws(JSONTooDeep) {
        let found = bytes.withContiguousStorageIfAvailable { offsetPastLimit(in: $0) } ?? offsetPastLimit(in: Array(bytes))
        if let offset = found { throw JSONTooDeep(offset: offset) }
    }

    /// The byte offset of the first `[` or `{` that opens level `limit + 1`, or nil.
    @usableFromInline
    static func offsetPastLimit(in array: [UInt8]) -> Int? {
        array.withUnsafeBufferPointer { offsetPastLimit(in: $0) }
    }

    @usableFromInline
    static func offsetPastLimit(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for offset in bytes.indices {
            let byte = bytes[offset]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return offset }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                // A stray closer is the reader's syntax error; never count below zero,
                // so it cannot hide the depth of what follows.
                depth = max(depth - 1, 0)
            default:
                break
            }
        }
        return nil
    }
}

/// A JSON document nested deeper than `JSONDepth.limit`, refused before any
/// reader recursed into it.
public struct JSONTooDeep: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the level past the limit opens.
    public let offset: Int

    public init(offset: Int) { self.offset = offset }

    public var limit: Int { JSONDepth.limit }

    /// What was wrong and what to do, without the offset: for readers that put
    /// the offset in their own words ("invalid JSON at byte N: …").
    public var reason: String {
        "arrays and objects nest more than \(limit) levels deep, and Summit reads at most \(limit); "
            + "check that this is the document you meant, or flatten its nesting"
    }

    public var description: String { "JSON too deep at byte \(offset): \(reason)" }
}
