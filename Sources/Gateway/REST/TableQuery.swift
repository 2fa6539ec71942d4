/// A REST request's query string, read into parts: which columns and embedded
/// resources, which rows (filters and logic trees), in what order, how many —
/// for the table (or function result) itself and for each embedded resource,
/// addressed by its path (`cities.order=name`, `cities.or=(…)`).
struct TableQuery: Sendable {
    struct OrderTerm: Sendable, Equatable {
        var column: String
        /// `order=rel(col)`: a column of a to-one embedded resource.
        var relation: String?
        var descending: Bool
        var nullsFirst: Bool?
    }

    /// What narrows and orders one level: the root, or one embedded resource.
    struct Modifiers: Sendable, Equatable {
        var conditions: [Condition] = []
        var order: [OrderTerm] = []
        var limit: Int?
        var offset: Int?

        var isEmpty: Bool { conditions.isEmpty && order.isEmpty && limit == nil && offset == nil }
    }

    var select: [SelectItem] = []
    var root = Modifiers()
    /// Keyed by the embedded resource's path of names (aliases where given).
    var embedded: [[String]: Modifiers] = [:]
    var onConflict: [String]?
    var columns: [String]?
    /// Parameters that are a function's arguments (GET and HEAD on /rpc).
    var arguments: [(name: String, value: String)] = []

    var order: [OrderTerm] { root.order }
    var limit: Int? { root.limit }
    var offset: Int? { root.offset }
    /// Anything beyond the plain call: a statement that varies, so it is not prepared.
    var hasModifiers: Bool { !select.isEmpty || !root.isEmpty || !embedded.isEmpty }

    /// Parses `items` (decoded query parameters). With `argumentNames` (GET /rpc), a
    /// parameter named like one of the function's parameters is an argument, and so is
    /// one whose value is no filter; otherwise every parameter must be understood.
    init(_ items: [(name: String, value: String)], argumentNames: Set<String>? = nil) throws(Refusal) {
        for (name, value) in items {
            if let argumentNames, argumentNames.contains(name) {
                arguments.append((name, value))
                continue
            }
            switch name {
            case "select":
                select = try SelectItem.parseList(value)
            case "on_conflict":
                onConflict = try Self.columnList(value, name)
            case "columns":
                columns = try Self.columnList(value, name)
            default:
                try read(name, value, lenient: argumentNames != nil)
            }
        }
    }

    init() {}

    /// A modifier (`order`, `limit`, `offset`, a tree) or a filter, at the path its name gives.
    private mutating func read(_ name: String, _ value: String, lenient: Bool) throws(Refusal) {
        var parts = Lexer.dotted(name)
        guard let last = parts.last else { return }
        if last.contains("->") {
            throw PostgRESTError.parse("\(name.prefix(80)): JSON paths are not supported by Summit", hint: "filter on the whole column")
        }
        switch last {
        case "order", "limit", "offset":
            parts.removeLast()
            let path = try Self.path(parts)
            var modifiers = embedded[path] ?? Modifiers()
            if path.isEmpty { modifiers = root }
            switch last {
            case "order": modifiers.order = try Self.parseOrder(value)
            case "limit": modifiers.limit = try Self.count(value, name)
            default: modifiers.offset = try Self.count(value, name)
            }
            set(modifiers, at: path)
        case "or", "and":
            parts.removeLast()
            var operatorName = last
            if parts.last == "not" {
                parts.removeLast()
                operatorName = "not." + last
            }
            let path = try Self.path(parts)
            var modifiers = path.isEmpty ? root : embedded[path] ?? Modifiers()
            modifiers.conditions.append(try Condition.parseTree(operatorName, value))
            set(modifiers, at: path)
        default:
            parts.removeLast()
            let path = try Self.path(parts)
            guard let filter = try RowFilter.parse(column: last, value, lenient: lenient && path.isEmpty) else {
                arguments.append((name, value))
                return
            }
            var modifiers = path.isEmpty ? root : embedded[path] ?? Modifiers()
            modifiers.conditions.append(.filter(filter))
            set(modifiers, at: path)
        }
    }

    private mutating func set(_ modifiers: Modifiers, at path: [String]) {
        if path.isEmpty { root = modifiers } else { embedded[path] = modifiers }
    }

    private static func path(_ parts: [String]) throws(Refusal) -> [String] {
        guard parts.count <= SelectItem.maximumDepth else { throw PostgRESTError.parse("embedded paths are at most \(SelectItem.maximumDepth) deep") }
        return try parts.map { part throws(Refusal) in try Identifier.check(part, "embedded resource") }
    }

    // MARK: - Pieces

    static func count(_ text: String, _ name: String) throws(Refusal) -> Int {
        guard let number = Int(text), number >= 0, number <= 1_000_000_000 else {
            throw PostgRESTError.parse("\(name.prefix(80)) must be a non-negative integer, not \"\(text.prefix(80))\"")
        }
        return number
    }

    static func columnList(_ text: String, _ name: String) throws(Refusal) -> [String] {
        let columns = try Lexer.split(text).map { item throws(Refusal) in
            try Identifier.check(Lexer.unquote(item), name)
        }
        guard !columns.isEmpty else { throw PostgRESTError.parse("\(name) needs at least one column") }
        return columns
    }

    /// `col.desc.nullslast,other,rel(col).asc`
    static func parseOrder(_ text: String) throws(Refusal) -> [OrderTerm] {
        var terms: [OrderTerm] = []
        for rawTerm in try Lexer.split(text) {
            let term = rawTerm.trimmingCharacters(in: .whitespaces)
            var relation: String?
            var columnPart: String
            var modifiers: [String]
            if let open = term.firstIndex(of: "("), let close = term.firstIndex(of: ")"), open < close {
                relation = try Identifier.check(Lexer.unquote(String(term[..<open])), "order")
                columnPart = String(term[term.index(after: open)..<close])
                let after = term[term.index(after: close)...]
                modifiers = after.isEmpty ? [] : after.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            } else {
                let parts = Lexer.dotted(term)
                columnPart = parts[0]
                modifiers = Array(parts.dropFirst())
            }
            var order = OrderTerm(column: try Identifier.check(Lexer.unquote(columnPart), "order"), relation: relation,
                                  descending: false, nullsFirst: nil)
            for modifier in modifiers {
                switch modifier {
                case "asc": order.descending = false
                case "desc": order.descending = true
                case "nullsfirst": order.nullsFirst = true
                case "nullslast": order.nullsFirst = false
                default:
                    throw PostgRESTError.parse("order=\(rawTerm.prefix(80)): \(modifier.prefix(40)) is not asc, desc, nullsfirst or nullslast")
                }
            }
            terms.append(order)
        }
        return terms
    }
}

import Foundation
