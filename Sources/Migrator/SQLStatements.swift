import Foundation

/// Splits SQL text into its top-level statements.
///
/// Knows just enough of PostgreSQL's lexical rules to find the semicolons that
/// end statements: those inside quotes, dollar-quoted bodies, and comments don't.
enum SQLStatements {
    struct Statement: Equatable {
        /// The statement without leading whitespace or comments.
        var text: String
        /// The 1-based line where it starts.
        var line: Int
    }

    static func split(_ sql: String) -> [Statement] {
        let chars = Array(sql.unicodeScalars)
        var statements: [Statement] = []
        var current = String.UnicodeScalarView()
        var startLine = 1
        var line = 1
        var index = 0

        func flush() {
            let text = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { statements.append(Statement(text: text, line: startLine)) }
            current = String.UnicodeScalarView()
        }

        func append(_ scalar: Unicode.Scalar) {
            // A statement starts at its first significant character.
            if current.allSatisfy({ $0.properties.isWhitespace }) && !scalar.properties.isWhitespace {
                startLine = line
            }
            current.append(scalar)
            if scalar == "\n" { line += 1 }
        }

        while index < chars.count {
            let c = chars[index]
            let next: Unicode.Scalar? = index + 1 < chars.count ? chars[index + 1] : nil
            if c == "-" && next == "-" {
                // Line comment: skipped, but its newline still counts.
                while index < chars.count && chars[index] != "\n" { index += 1 }
                continue
            }
            if c == "/" && next == "*" {
                var depth = 0
                repeat {
                    if chars[index] == "/" && index + 1 < chars.count && chars[index + 1] == "*" { depth += 1; index += 2; continue }
                    if chars[index] == "*" && index + 1 < chars.count && chars[index + 1] == "/" { depth -= 1; index += 2; continue }
                    if chars[index] == "\n" { line += 1 }
                    index += 1
                } while depth > 0 && index < chars.count
                continue
            }
            if c == "'" || c == "\"" {
                append(c)
                index += 1
                while index < chars.count {
                    let d = chars[index]
                    append(d)
                    index += 1
                    if d == c {
                        // A doubled quote is an escaped quote, not the end.
                        if index < chars.count && chars[index] == c { append(c); index += 1; continue }
                        break
                    }
                }
                continue
            }
            if c == "$", let tag = dollarTag(chars, at: index) {
                for scalar in tag { append(scalar) }
                index += tag.count
                // Copy up to and including the closing tag.
                while index < chars.count {
                    if chars[index] == "$", index + tag.count <= chars.count,
                       Array(chars[index..<index + tag.count]) == tag {
                        for scalar in tag { append(scalar) }
                        index += tag.count
                        break
                    }
                    append(chars[index])
                    index += 1
                }
                continue
            }
            if c == ";" {
                flush()
                index += 1
                continue
            }
            append(c)
            index += 1
        }
        flush()
        return statements
    }

    /// `$$` or `$tag$` starting at `index`, if one does.
    private static func dollarTag(_ chars: [Unicode.Scalar], at index: Int) -> [Unicode.Scalar]? {
        // A $ right after an identifier character is part of the identifier or a parameter ($1).
        if index > 0, chars[index - 1].properties.isAlphabetic || chars[index - 1] == "_"
            || ("0"..."9").contains(chars[index - 1]) { return nil }
        var end = index + 1
        while end < chars.count, chars[end] == "_" || chars[end].properties.isAlphabetic
            || (end > index + 1 && ("0"..."9").contains(chars[end])) {
            end += 1
        }
        guard end < chars.count, chars[end] == "$" else { return nil }
        return Array(chars[index...end])
    }
}
