/// A REST request's query string, read into parts: which columns, which rows, in
/// what order, how many. The subset of PostgREST the apps use; anything else is
/// refused by name rather than ignored.
struct TableQuery: Sendable, Equatable {
    struct SelectItem: Sendable, Equatable {
        /// `*` or a column name.
        var column: String
        var alias: String?
        /// A type name, checked to be only words (and a trailing `[]`).
        var cast: String?
    }

    enum Operator: String, Sendable, CaseIterable {
        case eq, neq, gt, gte, lt, lte, like, ilike, `in`, `is`
    }

    enum Value: Sendable, Equatable {
        case text(String)
        case list([String])
        /// `is.null`, `is.true`, `is.false`, `is.unknown`: SQL keywords, never parameters.
        case keyword(String)
    }

    struct Filter: Sendable, Equatable {
        var column: String
        var negated: Bool
        var op: Operator
        var value: Value
    }

    struct OrderTerm: Sendable, Equatable {
        var column: String
        var descending: Bool
        var nullsFirst: Bool?
    }

    var select: [SelectItem] = []
    var filters: [Filter] = []
    var order: [OrderTerm] = []
    var limit: Int?
    var offset: Int?
    var onConflict: [String]?
    var columns: [String]?
    /// Other parameters, kept for RPCs called with GET (their arguments).
    var arguments: [(name: String, value: String)] = []

    static func == (lhs: TableQuery, rhs: TableQuery) -> Bool {
        lhs.select == rhs.select && lhs.filters == rhs.filters && lhs.order == rhs.order && lhs.limit == rhs.limit
            && lhs.offset == rhs.offset && lhs.onConflict == rhs.onConflict && lhs.columns == rhs.columns
            && lhs.arguments.map(\.name) == rhs.arguments.map(\.name) && lhs.arguments.map(\.value) == rhs.arguments.map(\.value)
    }

    /// Parses `items` (decoded query parameters). With `argumentsAllowed`, a parameter
    /// that is not a filter is kept as an argument (GET /rpc); otherwise it is an error.
    init(_ items: [(name: String, value: String)], argumentsAllowed: Bool = false) throws(Refusal) {
        for (name, value) in items {
            switch name {
            case "select":
                select = try Self.parseSelect(value)
            case "order":
                order = try Self.parseOrder(value)
            case "limit":
                limit = try Self.count(value, name)
            case "offset":
                offset = try Self.count(value, name)
            case "on_conflict":
                onConflict = try Self.columnList(value, name)
            case "columns":
                columns = try Self.columnList(value, name)
            case "or", "and", "not.or", "not.and":
                throw PostgRESTError.parse("\(name)=(…) logic trees are not supported by Summit",
                                           hint: "combine conditions with several column filters (they are ANDed) or call an RPC")
            default:
                if name.contains(".") && !name.hasPrefix("\"") {
                    throw PostgRESTError.parse("\(name): embedded resources and JSON paths are not supported by Summit",
                                               hint: "filter on the table's own columns")
                }
                if let filter = try Self.parseFilter(column: name, value, lenient: argumentsAllowed) {
                    filters.append(filter)
                } else {
                    arguments.append((name, value))
                }
            }
        }
    }

    init() {}

    // MARK: - Pieces

    static func count(_ text: String, _ name: String) throws(Refusal) -> Int {
        guard let number = Int(text), number >= 0, number <= 1_000_000_000 else {
            throw PostgRESTError.parse("\(name) must be a non-negative integer, not \"\(text)\"")
        }
        return number
    }

    static func columnList(_ text: String, _ name: String) throws(Refusal) -> [String] {
        let columns = try splitTopLevel(text).map { $0.trimmingCharacters(in: .whitespaces) }.map { item throws(Refusal) in
            try columnName(unquote(item), context: name)
        }
        guard !columns.isEmpty else { throw PostgRESTError.parse("\(name) needs at least one column") }
        return columns
    }

    /// `a,b:c,d::text,*` — no embedding (`rel(...)`), no JSON paths.
    static func parseSelect(_ text: String) throws(Refusal) -> [SelectItem] {
        var items: [SelectItem] = []
        for rawItem in try splitTopLevel(text) {
            let item = rawItem.trimmingCharacters(in: .whitespaces)
            if item.contains("(") || item.contains(")") {
                throw PostgRESTError.parse("select=\(item): embedding related tables is not supported by Summit",
                                           hint: "select this table's columns, or call an RPC that joins")
            }
            if item.contains("->") {
                throw PostgRESTError.parse("select=\(item): JSON paths are not supported by Summit", hint: "select the whole column")
            }
            var rest = Substring(item)
            var alias: String?
            var cast: String?
            if let castRange = rest.range(of: "::") {
                cast = String(rest[castRange.upperBound...])
                rest = rest[..<castRange.lowerBound]
            }
            if let colon = rest.firstIndex(of: ":") {
                alias = try columnName(unquote(String(rest[..<colon])), context: "select")
                rest = rest[rest.index(after: colon)...]
            }
            let column = unquote(String(rest))
            if column == "*" {
                guard alias == nil, cast == nil else { throw PostgRESTError.parse("select=*: * takes no alias or cast") }
                items.append(SelectItem(column: "*"))
                continue
            }
            if let cast { try checkType(cast) }
            items.append(SelectItem(column: try columnName(column, context: "select"), alias: alias, cast: cast))
        }
        guard !items.isEmpty else { throw PostgRESTError.parse("select= needs at least one column (or *)") }
        return items
    }

    /// `col.desc.nullslast,other`
    static func parseOrder(_ text: String) throws(Refusal) -> [OrderTerm] {
        var terms: [OrderTerm] = []
        for rawTerm in try splitTopLevel(text) {
            var parts = rawTerm.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let first = parts.first else { continue }
            var term = OrderTerm(column: try columnName(unquote(first), context: "order"), descending: false, nullsFirst: nil)
            parts.removeFirst()
            for modifier in parts {
                switch modifier {
                case "asc": term.descending = false
                case "desc": term.descending = true
                case "nullsfirst": term.nullsFirst = true
                case "nullslast": term.nullsFirst = false
                default:
                    throw PostgRESTError.parse("order=\(rawTerm): \(modifier) is not asc, desc, nullsfirst or nullslast")
                }
            }
            terms.append(term)
        }
        return terms
    }

    /// `op.value` or `not.op.value` for column `column`. Returns nil for a value that is
    /// no filter when `lenient` (an RPC argument); otherwise that is an error.
    static func parseFilter(column: String, _ text: String, lenient: Bool) throws(Refusal) -> Filter? {
        var rest = Substring(text)
        var negated = false
        if rest.hasPrefix("not.") {
            negated = true
            rest = rest.dropFirst(4)
        }
        guard let dot = rest.firstIndex(of: "."), let op = Operator(rawValue: String(rest[..<dot])) else {
            if lenient && !negated { return nil }
            throw PostgRESTError.parse("failed to parse filter (\(text)) on \(column)",
                                       hint: "filters are column=op.value with op one of \(Operator.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let name = try columnName(unquote(column), context: "filter")
        let raw = String(rest[rest.index(after: dot)...])
        let value: Value
        switch op {
        case .in:
            value = .list(try parseList(raw, column: name))
        case .is:
            let keyword = raw.lowercased()
            guard ["null", "true", "false", "unknown"].contains(keyword) else {
                throw PostgRESTError.parse("is.\(raw) on \(name): is takes null, true, false or unknown")
            }
            value = .keyword(keyword)
        case .like, .ilike:
            value = .text(raw.replacingOccurrences(of: "*", with: "%"))
        default:
            value = .text(raw)
        }
        return Filter(column: name, negated: negated, op: op, value: value)
    }

    /// `(a,b,"c,d")` with double-quoted items and backslash escapes inside quotes.
    static func parseList(_ text: String, column: String) throws(Refusal) -> [String] {
        guard text.hasPrefix("("), text.hasSuffix(")"), text.count >= 2 else {
            throw PostgRESTError.parse("in.\(text) on \(column): the list must be in parentheses, like in.(1,2,3)")
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
                    guard current.isEmpty else { throw PostgRESTError.parse("in.\(text) on \(column): a quote inside an item") }
                    quoted = true
                    wasQuoted = true
                case ",":
                    items.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces))
                    current = ""
                    wasQuoted = false
                default:
                    guard !wasQuoted else { throw PostgRESTError.parse("in.\(text) on \(column): text after a closing quote") }
                    current.append(character)
                }
            }
        }
        guard !quoted, !escaped else { throw PostgRESTError.parse("in.\(text) on \(column): an unclosed quote") }
        items.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces))
        guard items.count <= 10_000 else { throw PostgRESTError.parse("in.(…) on \(column): at most 10000 items") }
        return items
    }

    /// Splits on commas outside parentheses and double quotes.
    static func splitTopLevel(_ text: String) throws(Refusal) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        for character in text {
            switch character {
            case "\"": quoted.toggle()
            case "(" where !quoted: depth += 1
            case ")" where !quoted: depth -= 1
            case "," where !quoted && depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        guard depth == 0, !quoted else { throw PostgRESTError.parse("unbalanced parentheses or quotes in \"\(text)\"") }
        parts.append(current)
        return parts.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    static func unquote(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }

    /// Any name is safe once quoted; only emptiness, NUL and absurd length are refused.
    static func columnName(_ name: String, context: String) throws(Refusal) -> String {
        guard !name.isEmpty, name.utf8.count <= 63, !name.contains("\u{0}") else {
            throw PostgRESTError.parse("\(context): \"\(name.prefix(80))\" is not a column name (1 to 63 bytes)")
        }
        return name
    }

    /// Casts name a type, never SQL: words, one space between, an optional `[]`.
    static func checkType(_ type: String) throws(Refusal) {
        let base = type.hasSuffix("[]") ? String(type.dropLast(2)) : type
        let words = base.split(separator: " ", omittingEmptySubsequences: false)
        let valid = !words.isEmpty && words.count <= 3 && words.allSatisfy { word in
            !word.isEmpty && word.count <= 30 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                && !(word.first?.isNumber ?? true)
        }
        guard valid else { throw PostgRESTError.parse("::\(type) is not a type name") }
    }
}

import Foundation
