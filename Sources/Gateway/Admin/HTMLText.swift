/// A piece of HTML. Text interpolated into it is escaped: a grid titled
/// `<script>` shows as those characters, never as markup. Markup goes in only as
/// another `HTMLText`, so nothing a user wrote can become HTML by oversight.
///
///     let row: HTMLText = "<td>\(report.title)</td>"      // escaped
///     let page: HTMLText = "<table>\(rows)</table>"        // [HTMLText] joined as markup
struct HTMLText: ExpressibleByStringInterpolation, Sendable {
    private(set) var html: String

    init(stringLiteral literal: String) {
        html = literal
    }

    init(stringInterpolation: StringInterpolation) {
        html = stringInterpolation.html
    }

    /// Markup made elsewhere and trusted as it is (the gateway's own constants).
    init(trusted html: String) {
        self.html = html
    }

    static let empty: HTMLText = ""

    struct StringInterpolation: StringInterpolationProtocol {
        var html = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            html.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) {
            html += literal
        }

        mutating func appendInterpolation(_ text: String) {
            html += HTMLText.escape(text)
        }

        mutating func appendInterpolation(_ number: Int) {
            html += String(number)
        }

        mutating func appendInterpolation(_ fragment: HTMLText) {
            html += fragment.html
        }

        mutating func appendInterpolation(_ fragments: [HTMLText]) {
            for fragment in fragments { html += fragment.html }
        }
    }

    /// Text safe in element content and in quoted attribute values.
    static func escape(_ text: String) -> String { Markup.escape(text) }
}

/// Text made safe for HTML, SVG and XML: in element content and in quoted attribute
/// values alike. The admin site's pages and the meet pictures `summit` draws use it.
public enum Markup {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
