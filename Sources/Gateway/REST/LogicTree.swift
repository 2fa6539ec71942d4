/// PostgREST's logic trees: `or=(a.eq.1,and(b.gt.2,not.c.is.null))`,
/// `not.and=(…)`, nested to any depth (within a bound), each leaf a `RowFilter`.
/// A node's plain `column=op.value` filters are leaves ANDed beside its trees.
indirect enum Condition: Sendable, Equatable {
    case filter(RowFilter)
    case group(isOr: Bool, negated: Bool, [Condition])

    /// Deeper than this is refused: no real query nests so far, and parsing and
    /// SQL generation recurse.
    static let maximumDepth = 32

    /// The tree `and=(…)` / `or=(…)` / `not.or=(…)` names: `operatorName` is `and`,
    /// `or`, `not.and` or `not.or`, `text` the parenthesised list.
    static func parseTree(_ operatorName: String, _ text: String) throws(Refusal) -> Condition {
        let negated = operatorName.hasPrefix("not.")
        let isOr = operatorName.hasSuffix("or")
        guard text.hasPrefix("("), text.hasSuffix(")") else {
            throw PostgRESTError.parse("\(operatorName)=\(text.prefix(80)): a logic tree is a parenthesised list, like or=(a.eq.1,b.eq.2)")
        }
        return .group(isOr: isOr, negated: negated, try parseList(String(text.dropFirst().dropLast()), depth: 1))
    }

    private static func parseList(_ text: String, depth: Int) throws(Refusal) -> [Condition] {
        guard depth <= maximumDepth else { throw PostgRESTError.parse("logic trees may nest at most \(maximumDepth) levels") }
        let items = try Lexer.split(text)
        guard !items.isEmpty else { throw PostgRESTError.parse("a logic tree needs at least one condition") }
        return try items.map { item throws(Refusal) in try parseItem(item.trimmingCharacters(in: .whitespaces), depth: depth) }
    }

    /// `and(…)`, `not.or(…)`, or `column.[not.]op.value`.
    private static func parseItem(_ item: String, depth: Int) throws(Refusal) -> Condition {
        for prefix in ["and(", "or(", "not.and(", "not.or("] where item.hasPrefix(prefix) {
            guard item.hasSuffix(")") else { throw PostgRESTError.parse("\(item.prefix(80)): an unclosed parenthesis") }
            let inner = String(item.dropFirst(prefix.count).dropLast())
            return .group(isOr: prefix.contains("or("), negated: prefix.hasPrefix("not."), try parseList(inner, depth: depth + 1))
        }
        let (column, rest) = try Lexer.leadingName(item)
        guard var rest, !rest.isEmpty else {
            throw PostgRESTError.parse("failed to parse logic tree item (\(item.prefix(80)))", hint: "items are column.op.value, and(…) or or(…)")
        }
        // Inside a tree a value may be double-quoted to hold `,`, `.`, `(` and `)`.
        let operatorStart = rest.hasPrefix("not.") ? rest.index(rest.startIndex, offsetBy: 4) : rest.startIndex
        if let dot = rest[operatorStart...].firstIndex(of: "."),
           let unquoted = Lexer.unquoteValue(String(rest[rest.index(after: dot)...])) {
            rest = String(rest[...dot]) + unquoted
        }
        guard let filter = try RowFilter.parse(column: column, rest) else {
            throw PostgRESTError.parse("failed to parse logic tree item (\(item.prefix(80)))")
        }
        return .filter(filter)
    }

    /// The SQL of this condition on `qualifier`'s columns.
    func sql(on qualifier: String, _ builder: inout SQLBuilder) -> String {
        switch self {
        case .filter(let filter):
            return filter.sql(on: qualifier, &builder)
        case .group(let isOr, let negated, let children):
            let joined = "(" + children.map { $0.sql(on: qualifier, &builder) }.joined(separator: isOr ? " or " : " and ") + ")"
            return negated ? "not " + joined : joined
        }
    }
}

/// The small lexing PostgREST's query syntax needs: commas outside parentheses,
/// braces and double quotes; names that may be double-quoted.
enum Lexer {
    /// Splits on commas outside `()`, `{}` and double quotes (so `in.(1,2)` and
    /// `cs.{a,b}` stay whole).
    static func split(_ text: String) throws(Refusal) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                current.append(character)
                continue
            }
            switch character {
            case "\\" where quoted: escaped = true
            case "\"": quoted.toggle()
            case "(", "{":
                if !quoted { depth += 1 }
            case ")", "}":
                if !quoted { depth -= 1 }
                guard depth >= 0 else { throw PostgRESTError.parse("unbalanced parentheses in \"\(text.prefix(120))\"") }
            case "," where !quoted && depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        guard depth == 0, !quoted else { throw PostgRESTError.parse("unbalanced parentheses or quotes in \"\(text.prefix(120))\"") }
        parts.append(current)
        return parts.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Splits `a.b."c.d"` on dots outside double quotes, unquoting each part.
    static func dotted(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character == "." && !quoted {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts.map(unquote)
    }

    /// The name before the first dot outside quotes, and what follows the dot.
    static func leadingName(_ text: String) throws(Refusal) -> (String, String?) {
        var quoted = false
        for index in text.indices {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            if character == "." && !quoted {
                return (unquote(String(text[..<index])), String(text[text.index(after: index)...]))
            }
        }
        return (unquote(text), nil)
    }

    static func unquote(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }

    /// `"a,b"` → `a,b`, with `\"` and `\\` unescaped; nil when it is not one quoted string.
    static func unquoteValue(_ text: String) -> String? {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return nil
            } else {
                result.append(character)
            }
        }
        return escaped ? nil : result
    }
}

import Foundation
