import Foundation

enum TrailNames {
    /// NFKD, combining marks dropped, lowercased, every non-letter/non-digit a
    /// space, spaces collapsed and trimmed: "Saint-Éloi  Glade" → "saint eloi glade".
    static func normalizedKey(_ name: String) -> String {
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
    static func exact(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
