/// Writes canonical JSON: no insignificant whitespace, object keys in UTF-8
/// byte order, explicit `null`s, minimal string escapes, canonical numbers.
///
/// Members are written in the order the caller gives them, and the writer
/// traps if a key is not strictly greater (by UTF-8 bytes) than the previous
/// key of the same object: a misordered key is a programming error that would
/// otherwise silently change every content hash.
struct CanonicalJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Per open object: the previous key, or nil before the first member.
    private var keyStack: [[UInt8]?] = []
    /// Per open container: whether a comma is needed before the next element.
    private var needsComma: [Bool] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    // MARK: - Containers

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        keyStack.append(nil)
        needsComma.append(false)
    }

    mutating func endObject() {
        keyStack.removeLast()
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the member's value must follow.
    mutating func key(_ key: String) {
        let utf8 = Array(key.utf8)
        if let previous = keyStack[keyStack.count - 1] {
            precondition(previous.lexicographicallyPrecedes(utf8),
                         "canonical JSON keys out of order: \(String(decoding: previous, as: UTF8.self)) before \(key)")
        }
        keyStack[keyStack.count - 1] = utf8
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        appendString(utf8)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows must not add its own comma.
        needsComma[needsComma.count - 1] = false
        pendingValueAfterKey = true
    }

    private var pendingValueAfterKey = false

    /// Emits the comma between array elements / object members.
    private mutating func separate() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
        } else if let last = needsComma.last, last {
            bytes.append(UInt8(ascii: ","))
        }
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }

    // MARK: - Scalars

    mutating func null() {
        separate()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        separate()
        appendString(Array(value.utf8))
    }

    mutating func number(_ value: Double?) {
        guard let value else { return null() }
        separate()
        CanonicalNumber.append(value, to: &bytes)
    }

    mutating func integer(_ value: Int?) {
        guard let value else { return null() }
        separate()
        CanonicalNumber.appendInteger(Int64(value), to: &bytes)
    }

    mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        separate()
        bytes.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
    }

    /// Escapes only `"`, `\` and control characters (as `\u00XX`); all other
    /// UTF-8 passes through unchanged.
    private mutating func appendString(_ utf8: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20:
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])   // \u00
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
