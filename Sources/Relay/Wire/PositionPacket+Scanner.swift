import Foundation

extension PositionPacket {
    /// Reads a packet the way the server writes them — one flat object of strings,
    /// numbers and nulls, strings without escapes — or returns nil for anything
    /// else, which `init(payload:)` then hands to JSONDecoder. The relay reads one
    /// packet per publish on its hot path, and JSONDecoder builds a whole document
    /// model for twelve fields; the answer is the same either way.
    static func scanned(_ bytes: UnsafeBufferPointer<UInt8>) -> PositionPacket? {
        var cursor = PacketCursor(bytes: bytes)
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var userID: UUID?, resortID: String?, name: String?, nodeID: String?, edgeID: String?
        var latitude: Double?, longitude: Double?, captured: Double?, accuracy: Double?, altitude: Double?
        var speed: Double?, heading: Double?, edgeFraction: Double?
        if !cursor.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = cursor.string(), cursor.take(UInt8(ascii: ":")), let value = cursor.value() else { return nil }
                switch key {
                case "u":
                    guard case .text(let text)? = value else { return nil }
                    guard let id = UUID(uuidString: text) else { return nil }
                    userID = id
                case "r": guard case .text(let text)? = value else { return nil }; resortID = text
                case "n": guard let text = value.text else { return nil }; name = text
                case "node": guard let text = value.text else { return nil }; nodeID = text
                case "edge": guard let text = value.text else { return nil }; edgeID = text
                case "lat": guard case .number(let number)? = value else { return nil }; latitude = number
                case "lon": guard case .number(let number)? = value else { return nil }; longitude = number
                case "at": guard case .number(let number)? = value else { return nil }; captured = number
                case "acc": guard let number = value.number else { return nil }; accuracy = number
                case "alt": guard let number = value.number else { return nil }; altitude = number
                case "spd": guard let number = value.number else { return nil }; speed = number
                case "hdg": guard let number = value.number else { return nil }; heading = number
                case "frac": guard let number = value.number else { return nil }; edgeFraction = number
                default: break
                }
            } while cursor.take(UInt8(ascii: ","))
            guard cursor.take(UInt8(ascii: "}")) else { return nil }
        }
        guard cursor.atEnd, let userID, let resortID, let latitude, let longitude, let captured else { return nil }
        return PositionPacket(userID: userID, name: name, latitude: latitude, longitude: longitude,
                              capturedMicros: Int64((captured * 1_000_000).rounded()),
                              accuracy: accuracy, altitude: altitude, speed: speed, heading: heading,
                              nodeID: nodeID, edgeID: edgeID, edgeFraction: edgeFraction, resortID: resortID)
    }
}

/// A position in a packet's bytes. Each reader returns nil where the packet
/// leaves the simple form, and the caller gives up on the fast path.
private struct PacketCursor {
    enum Value {
        case text(String)
        case number(Double)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool {
        mutating get {
            skipSpace()
            return index == bytes.count
        }
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    /// Consumes `byte` (after any space) if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string without escapes.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            case UInt8(ascii: "\\"), 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// A string, a number, or null (`.some(nil)`); nil for anything else.
    mutating func value() -> Value?? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return string().map { .some(.text($0)) }
        case UInt8(ascii: "n"):
            guard bytes.count - index >= 4, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
                  bytes[index + 3] == UInt8(ascii: "l") else { return nil }
            index += 4
            return .some(nil)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                     UInt8(ascii: "e"), UInt8(ascii: "E"):
                    index += 1
                    continue
                default:
                    break
                }
                break
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard Self.isJSONNumber(text), let number = Double(text), number.isFinite else { return nil }
            return .some(.number(number))
        default:
            return nil
        }
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    /// `Double(_:)` alone would also take forms JSON refuses, such as `01` or `1.`.
    static func isJSONNumber(_ text: String) -> Bool {
        var digits = text.utf8[...]
        func run() -> Int {
            let count = digits.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            digits = digits.dropFirst(count)
            return count
        }
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        if digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
        } else if run() == 0 {
            return false
        }
        if digits.first == UInt8(ascii: ".") {
            digits = digits.dropFirst()
            if run() == 0 { return false }
        }
        if digits.first == UInt8(ascii: "e") || digits.first == UInt8(ascii: "E") {
            digits = digits.dropFirst()
            if digits.first == UInt8(ascii: "+") || digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
            if run() == 0 { return false }
        }
        return digits.isEmpty
    }
}

private extension Optional where Wrapped == PacketCursor.Value {
    /// A string or null; nil (as `.none` of the outer optional) for a number.
    var text: String?? {
        switch self {
        case .text(let text)?: .some(text)
        case nil: .some(nil)
        case .number?: nil
        }
    }

    /// A number or null; nil (as `.none` of the outer optional) for a string.
    var number: Double?? {
        switch self {
        case .number(let number)?: .some(number)
        case nil: .some(nil)
        case .text?: nil
        }
    }
}
