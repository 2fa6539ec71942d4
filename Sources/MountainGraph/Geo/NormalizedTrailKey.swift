import Foundation

public enum TrailNames {
    /// NFKD, combining marks dropped, lowercased, every non-letter/non-digit a
    /// space, spaces collapsed and trimmed: "Saint-Éloi  Glade" → "saint eloi glade".
    public static func normalizedKey(_ name: String) -> String {
        // ASCII needs no decomposition: keep letters and digits, lowercase.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            var pendingSpace = false
            for byte in name.utf8 {
                let lower = byte >= 65 && byte <= 90 ? byte + 32 : byte
                if (lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57) {
                    if pendingSpace, !out.isEmpty { out.append(32) }
                    pendingSpace = false
                    out.append(lower)
                } else {
                    pendingSpace = true
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        let decomposed = name.decomposedStringWithCompatibilityMapping
        var out = ""
        var pendingSpace = false
        for scalar in decomposed.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                break
            }
            let isAlphanumeric = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if isAlphanumeric {
                if pendingSpace, !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(String(scalar).lowercased())
            } else {
                pendingSpace = true
            }
        }
        return out
    }

    /// The form in which canonical names are compared: NFC, outer whitespace trimmed.
    public static func exact(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
