import Postgres

/// One PostgREST filter, `column=[not.]op[(modifier)].value`, and the SQL it
/// becomes. Operators come from a fixed table; the value is always a parameter
/// (an untyped one, so PostgreSQL reads it as the column's own type, as it does
/// PostgREST's), never SQL text.
struct RowFilter: Sendable, Equatable {
    enum Operator: String, Sendable, CaseIterable {
        case eq, neq, gt, gte, lt, lte, like, ilike, match, imatch, `in`, `is`, isdistinct
        case cs, cd, ov, sl, sr, nxl, nxr, adj
        case fts, plfts, phfts, wfts

        var sql: String {
            switch self {
            case .eq, .in: "="
            case .neq: "<>"
            case .gt: ">"
            case .gte: ">="
            case .lt: "<"
            case .lte: "<="
            case .like: "like"
            case .ilike: "ilike"
            case .match: "~"
            case .imatch: "~*"
            case .is: "is"
            case .isdistinct: "is distinct from"
            case .cs: "@>"
            case .cd: "<@"
            case .ov: "&&"
            case .sl: "<<"
            case .sr: ">>"
            case .nxr: "&<"
            case .nxl: "&>"
            case .adj: "-|-"
            case .fts: "@@ to_tsquery"
            case .plfts: "@@ plainto_tsquery"
            case .phfts: "@@ phraseto_tsquery"
            case .wfts: "@@ websearch_to_tsquery"
            }
        }

        /// Operators that take `(any)` / `(all)` over a `{a,b}` list, as PostgREST's do.
        var quantifiable: Bool { [.eq, .gt, .gte, .lt, .lte, .like, .ilike, .match, .imatch].contains(self) }
        var isTextSearch: Bool { [.fts, .plfts, .phfts, .wfts].contains(self) }
    }

    enum Quantifier: String, Sendable { case any, all }

    enum Value: Sendable, Equatable {
        case text(String)
        case list([String])
        /// `is.null`, `is.true`, `is.false`, `is.unknown`: SQL keywords, never parameters.
        case keyword(String)
    }

    var column: String
    var negated: Bool
    var op: Operator
    var quantifier: Quantifier?
    /// The text search configuration of `fts(english)`, bound as a parameter.
    var language: String?
    var value: Value

    /// Parses `[not.]op[(modifier)].value` for `column`. Returns nil when the text is no
    /// filter at all and `lenient` (then it is something else, like an RPC argument).
    static func parse(column: String, _ text: String, lenient: Bool = false) throws(Refusal) -> RowFilter? {
        var rest = Substring(text)
        var negated = false
        if rest.hasPrefix("not.") {
            negated = true
            rest = rest.dropFirst(4)
        }
        guard let dot = rest.firstIndex(of: ".") else {
            if lenient && !negated { return nil }
            throw unknown(text, column)
        }
        var head = rest[..<dot]
        var modifier: String?
        if let open = head.firstIndex(of: "("), head.hasSuffix(")") {
            modifier = String(head[head.index(after: open)..<head.index(before: head.endIndex)])
            head = head[..<open]
        }
        guard let op = Operator(rawValue: String(head)) else {
            if lenient && !negated { return nil }
            throw unknown(text, column)
        }
        let name = try Identifier.check(column, "filter")
        let raw = String(rest[rest.index(after: dot)...])
        var filter = RowFilter(column: name, negated: negated, op: op, quantifier: nil, language: nil, value: .text(raw))
        if let modifier {
            if op.isTextSearch {
                guard !modifier.isEmpty, modifier.utf8.count <= 63, !modifier.contains("\u{0}") else {
                    throw PostgRESTError.parse("\(op.rawValue)(\(modifier.prefix(80))) on \(name): the text search configuration is not a name")
                }
                filter.language = modifier
            } else if op.quantifiable, let quantifier = Quantifier(rawValue: modifier) {
                filter.quantifier = quantifier
            } else {
                throw PostgRESTError.parse("\(op.rawValue)(\(modifier.prefix(80))) on \(name): only eq, gt, gte, lt, lte, like, ilike, match and imatch take (any) or (all); fts, plfts, phfts and wfts take a configuration")
            }
        }
        switch op {
        case .in:
            filter.value = .list(try ValueList.parse(raw, column: name))
        case .is:
            let keyword = raw.lowercased()
            guard ["null", "true", "false", "unknown"].contains(keyword) else {
                throw PostgRESTError.parse("is.\(raw.prefix(80)) on \(name): is takes null, true, false or unknown")
            }
            filter.value = .keyword(keyword)
        case .like, .ilike:
            // PostgREST's `*` wildcard, since `%` is awkward in URLs.
            filter.value = .text(raw.replacingOccurrences(of: "*", with: "%"))
        default:
            break
        }
        return filter
    }

    private static func unknown(_ text: String, _ column: String) -> Refusal {
        PostgRESTError.parse("failed to parse filter (\(text.prefix(120))) on \(column.prefix(80))",
                             hint: "filters are column=op.value with op one of \(Operator.allCases.map(\.rawValue).joined(separator: ", "))")
    }

    /// The condition on `qualifier`'s column (an alias already quoted), values bound into `builder`.
    func sql(on qualifier: String, _ builder: inout SQLBuilder) -> String {
        let column = qualifier + "." + PostgresQuery.quoteIdentifier(self.column)
        let condition: String
        switch (op, value) {
        case (.is, .keyword(let keyword)):
            condition = column + " is " + keyword
        case (.in, .list(let items)):
            condition = column + " = any(" + builder.bind(ValueList.arrayLiteral(items)) + ")"
        case (_, .text(let text)):
            if let quantifier {
                condition = column + " " + op.sql + " " + quantifier.rawValue + "(" + builder.bind(text) + ")"
            } else if op.isTextSearch {
                let config = language.map { builder.bind($0) + ", " } ?? ""
                condition = column + " " + op.sql + "(" + config + builder.bind(text) + ")"
            } else {
                condition = column + " " + op.sql + " " + builder.bind(text)
            }
        default:
            condition = "false"
        }
        return negated ? "not (" + condition + ")" : condition
    }
}

/// Names a client sends (tables, columns, functions, aliases, relationships): any
/// text is safe once quoted, so only what PostgreSQL cannot hold is refused, before
/// any SQL is sent — a NUL would cut libpq's text short, and a name over 63 bytes
/// would be silently truncated to another name.
enum Identifier {
    static func check(_ name: String, _ context: String) throws(Refusal) -> String {
        guard !name.isEmpty, name.utf8.count <= 63, !name.contains("\u{0}") else {
            let shown = name.replacingOccurrences(of: "\u{0}", with: "\\0").prefix(80)
            throw PostgRESTError.parse("\(context): \"\(shown)\" is not a name (1 to 63 bytes, no NUL)")
        }
        return name
    }
}

/// `(a,b,"c,d")` lists (of `in`) and the array literals they become.
enum ValueList {
    /// Double-quoted items may hold commas and parentheses, with backslash escapes inside quotes.
    static func parse(_ text: String, column: String) throws(Refusal) -> [String] {
        guard text.hasPrefix("("), text.hasSuffix(")"), text.count >= 2 else {
            throw PostgRESTError.parse("in.\(text.prefix(80)) on \(column): the list must be in parentheses, like in.(1,2,3)")
        }
        let inner = text.dropFirst().dropLast()
        guard !inner.isEmpty else { return [] }
        var items: [String] = []
        var current = ""
        var quoted = false
        var wasQuoted = false
        var escaped = false
        for character in inner {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted {
                switch character {
                case "\\": escaped = true
                case "\"": quoted = false
                default: current.append(character)
                }
            } else {
                switch character {
                case "\"":
                    guard current.isEmpty else { throw PostgRESTError.parse("in.\(text.prefix(80)) on \(column): a quote inside an item") }
                    quoted = true
                    wasQuoted = true
                case ",":
                    items.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces))
                    current = ""
                    wasQuoted = false
                default:
                    guard !wasQuoted else { throw PostgRESTError.parse("in.\(text.prefix(80)) on \(column): text after a closing quote") }
                    current.append(character)
                }
            }
        }
        guard !quoted, !escaped else { throw PostgRESTError.parse("in.\(text.prefix(80)) on \(column): an unclosed quote") }
        items.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces))
        guard items.count <= 10_000 else { throw PostgRESTError.parse("in.(…) on \(column): at most 10000 items") }
        return items
    }

    /// `{"a","b"}`: an array literal the server casts to the column's array type.
    static func arrayLiteral(_ items: [String]) -> String {
        "{" + items.map { item in
            "\"" + item.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}"
    }
}

import Foundation
