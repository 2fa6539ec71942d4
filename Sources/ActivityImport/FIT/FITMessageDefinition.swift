/// How one local message type is laid out, from its definition message.
struct FITMessageDefinition {
    struct Field {
        var number: UInt8
        var size: Int
        var baseType: UInt8
    }

    var globalNumber: UInt16
    var bigEndian: Bool
    var fields: [Field]
    /// Bytes of developer fields that follow the regular ones; skipped.
    var developerBytes: Int
    var totalSize: Int
}

/// FIT base types by their low five bits, and the "invalid" value each reserves.
enum FITBaseType {
    /// Byte size of a base type, or nil when the type is unknown.
    static func size(_ baseType: UInt8) -> Int? {
        switch baseType & 0x1F {
        case 0x00, 0x01, 0x02, 0x07, 0x0A, 0x0D: return 1
        case 0x03, 0x04, 0x0B: return 2
        case 0x05, 0x06, 0x08, 0x0C: return 4
        case 0x09, 0x0E, 0x0F, 0x10: return 8
        default: return nil
        }
    }

    static func isSigned(_ baseType: UInt8) -> Bool {
        switch baseType & 0x1F {
        case 0x01, 0x03, 0x05, 0x0E: return true
        default: return false
        }
    }

    /// True when `raw` is the type's "no value" marker.
    static func isInvalid(_ raw: UInt64, baseType: UInt8, size: Int) -> Bool {
        switch baseType & 0x1F {
        case 0x0A, 0x0B, 0x0C, 0x10: return raw == 0                        // the z types
        case 0x01, 0x03, 0x05, 0x0E: return raw == (UInt64(1) << (UInt64(size) * 8 - 1)) - 1  // signed max
        case 0x08: return raw == 0xFFFF_FFFF
        case 0x09: return raw == 0xFFFF_FFFF_FFFF_FFFF
        default: return size >= 8 ? raw == UInt64.max : raw == (UInt64(1) << (UInt64(size) * 8)) - 1
        }
    }
}
