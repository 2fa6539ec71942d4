/// `select=` as PostgREST reads it: columns (`alias:column`, `column::type`, `*`)
/// and embedded resources (`alias:relation!hint!inner(columns…)`, nested).
/// JSON paths and aggregates are refused by name.
enum SelectItem: Sendable, Equatable {
    case star
    case column(name: String, alias: String?, cast: String?)
    case embed(EmbedRequest)

    /// Deeper embedding than this is refused (each level is a correlated subquery).
    static let maximumDepth = 8

    static func parseList(_ text: String, depth: Int = 0) throws(Refusal) -> [SelectItem] {
        guard depth <= maximumDepth else { throw PostgRESTError.parse("select= may embed at most \(maximumDepth) levels deep") }
        var items: [SelectItem] = []
        for raw in try Lexer.split(text) {
            items.append(try parse(raw.trimmingCharacters(in: .whitespaces), depth: depth))
        }
        guard !items.isEmpty || depth > 0 else { throw PostgRESTError.parse("select= needs at least one column (or *)") }
        return items
    }

    private static func parse(_ item: String, depth: Int) throws(Refusal) -> SelectItem {
        if let open = firstParenthesis(item) {
            guard item.hasSuffix(")") else { throw PostgRESTError.parse("select=\(item.prefix(80)): an unclosed parenthesis") }
            var head = String(item[..<open])
            let inner = String(item[item.index(after: open)..<item.index(before: item.endIndex)])
            if head.hasPrefix("...") {
                throw PostgRESTError.parse("select=\(item.prefix(80)): spreading embedded columns (...) is not supported by Summit",
                                           hint: "embed it as an object instead: drop the ...")
            }
            var alias: String?
            if let colon = head.firstIndex(of: ":") {
                alias = try Identifier.check(Lexer.unquote(String(head[..<colon])), "select alias")
                head = String(head[head.index(after: colon)...])
            }
            let parts = head.split(separator: "!", omittingEmptySubsequences: false).map { Lexer.unquote(String($0)) }
            guard !parts[0].isEmpty, parts[0] != "count" || !inner.isEmpty else {
                throw PostgRESTError.parse("select=\(item.prefix(80)): aggregates are not supported by Summit")
            }
            var embed = EmbedRequest(relation: try Identifier.check(parts[0], "embedded resource"), alias: alias)
            for hint in parts.dropFirst() {
                switch hint {
                case "inner": embed.inner = true
                case "left": embed.inner = false
                default:
                    guard embed.hint == nil else { throw PostgRESTError.parse("select=\(item.prefix(80)): at most one relationship hint") }
                    embed.hint = try Identifier.check(hint, "embedding hint")
                }
            }
            embed.items = try parseList(inner, depth: depth + 1)
            return .embed(embed)
        }
        if item.contains("->") {
            throw PostgRESTError.parse("select=\(item.prefix(80)): JSON paths are not supported by Summit", hint: "select the whole column")
        }
        var rest = Substring(item)
        var alias: String?
        var cast: String?
        if let castRange = rest.range(of: "::") {
            cast = String(rest[castRange.upperBound...])
            rest = rest[..<castRange.lowerBound]
        }
        if let colon = rest.firstIndex(of: ":") {
            alias = try Identifier.check(Lexer.unquote(String(rest[..<colon])), "select alias")
            rest = rest[rest.index(after: colon)...]
        }
        let column = Lexer.unquote(String(rest))
        if column == "*" {
            guard alias == nil, cast == nil else { throw PostgRESTError.parse("select=*: * takes no alias or cast") }
            return .star
        }
        if let cast { try checkType(cast) }
        return .column(name: try Identifier.check(column, "select"), alias: alias, cast: cast)
    }

    private static func firstParenthesis(_ text: String) -> String.Index? {
        var quoted = false
        for index in text.indices {
            if text[index] == "\"" { quoted.toggle() }
            if text[index] == "(" && !quoted { return index }
        }
        return nil
    }

    /// Casts name a type, never SQL: words, one space between, an optional `[]`.
    static func checkType(_ type: String) throws(Refusal) {
        let base = type.hasSuffix("[]") ? String(type.dropLast(2)) : type
        let words = base.split(separator: " ", omittingEmptySubsequences: false)
        let valid = !words.isEmpty && words.count <= 3 && words.allSatisfy { word in
            !word.isEmpty && word.count <= 30 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                && !(word.first?.isNumber ?? true)
        }
        guard valid else { throw PostgRESTError.parse("::\(type.prefix(80)) is not a type name") }
    }
}

/// `alias:relation!hint!inner(items)` before it is matched to a foreign key.
struct EmbedRequest: Sendable, Equatable {
    var relation: String
    var alias: String?
    /// A foreign key's name or one of its columns, to choose among several relationships.
    var hint: String?
    var inner = false
    var items: [SelectItem] = []

    /// The key it has in the response, and the name its filters use (`alias.col=…`).
    var name: String { alias ?? relation }
}

import Foundation
