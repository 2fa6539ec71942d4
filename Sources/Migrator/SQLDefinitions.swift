/// The objects a repeatable file defines, found at the head of its top-level
/// statements (never inside a function body or a `DO` block).
///
/// Two files that define the same object would apply in order, the later one
/// silently replacing the earlier: a rule read in one file is not the rule that
/// runs. The source refuses that before anything touches a database.
enum SQLDefinitions {
    /// A function or procedure by its name and argument types (what PostgreSQL
    /// tells overloads apart by), a trigger or a policy by its name and table,
    /// a view by its name.
    struct Definition: Hashable, Sendable, CustomStringConvertible {
        var kind: String
        var identity: String
        var description: String { "\(kind) \(identity)" }
    }

    static func definitions(in sql: String) -> [(definition: Definition, line: Int)] {
        SQLStatements.split(sql).compactMap { statement in
            definition(heading: statement.text).map { ($0, statement.line) }
        }
    }

    static func definition(heading text: String) -> Definition? {
        var words = Words(text)
        guard words.next() == "create" else { return nil }
        var word = words.next()
        if word == "or" {
            guard words.next() == "replace" else { return nil }
            word = words.next()
        }
        switch word {
        case "function", "procedure":
            guard let name = words.name(), let arguments = words.parenthesised() else { return nil }
            return Definition(kind: "function", identity: "\(name)(\(argumentTypes(arguments).joined(separator: ", ")))")
        case "trigger", "constraint":
            if word == "constraint" { guard words.next() == "trigger" else { return nil } }
            guard let name = words.name() else { return nil }
            while let next = words.next() {
                if next == "on", let table = words.name() { return Definition(kind: "trigger", identity: "\(name) on \(table)") }
            }
            return nil
        case "view", "materialized":
            if word == "materialized" { guard words.next() == "view" else { return nil } }
            return words.name().map { Definition(kind: "view", identity: $0) }
        case "policy":
            guard let name = words.name(), words.next() == "on", let table = words.name() else { return nil }
            return Definition(kind: "policy", identity: "\(name) on \(table)")
        default:
            return nil
        }
    }

    /// `p_user uuid, p_limit int default 20, out total bigint` → `uuid, int`:
    /// modes, names, defaults and type modifiers dropped, OUT arguments left out (they are not
    /// part of a function's identity).
    static func argumentTypes(_ list: String) -> [String] {
        topLevelParts(list).compactMap { part in
            var words = Words(part)
            var tokens = words.all()
            if let end = tokens.firstIndex(where: { $0 == "default" || $0 == "=" }) { tokens = Array(tokens[..<end]) }
            guard !tokens.isEmpty else { return nil }
            if ["in", "out", "inout", "variadic"].contains(tokens[0]) {
                if tokens[0] == "out" { return nil }
                tokens.removeFirst()
            }
            // A leading word that cannot start a type is the argument's name.
            if tokens.count >= 2 && !typeStarts.contains(tokens[0]) { tokens.removeFirst() }
            // Type modifiers, `numeric(10, 2)`, are no part of a signature.
            var depth = 0
            tokens = tokens.filter { token in
                if token == "(" { depth += 1 } else if token == ")" { depth -= 1; return false }
                return depth == 0
            }
            return tokens.joined(separator: " ")
        }
    }

    /// First words of PostgreSQL's type names that are more than one word.
    private static let typeStarts: Set<String> = ["double", "timestamp", "time", "character", "char", "varchar", "bit", "interval", "national"]

    private static func topLevelParts(_ text: String) -> [String] {
        var parts: [String] = [], current = "", depth = 0
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == "," && depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parts.append(current) }
        return parts
    }

    /// Lowercased words, with `(`, `)`, `,` and `=` as words of their own and
    /// double-quoted identifiers kept whole (quotes dropped).
    private struct Words {
        private var scalars: [Character]
        private var index = 0

        init(_ text: String) { scalars = Array(text) }

        mutating func all() -> [String] {
            var words: [String] = []
            while let word = next() { words.append(word) }
            return words
        }

        mutating func next() -> String? {
            while index < scalars.count, scalars[index].isWhitespace { index += 1 }
            guard index < scalars.count else { return nil }
            let c = scalars[index]
            if "(),=".contains(c) {
                index += 1
                return String(c)
            }
            var word = ""
            while index < scalars.count {
                let c = scalars[index]
                if c == "\"" {
                    index += 1
                    while index < scalars.count, scalars[index] != "\"" { word.append(scalars[index]); index += 1 }
                    index += 1
                    continue
                }
                if c.isWhitespace || "(),=".contains(c) { break }
                word.append(contentsOf: c.lowercased())
                index += 1
            }
            return word
        }

        /// A possibly schema-qualified name.
        mutating func name() -> String? {
            guard let word = next(), !"(),=".contains(word) else { return nil }
            return word
        }

        /// The text between the next `(` and its matching `)`.
        mutating func parenthesised() -> String? {
            while index < scalars.count, scalars[index].isWhitespace { index += 1 }
            guard index < scalars.count, scalars[index] == "(" else { return nil }
            var depth = 0, text = ""
            while index < scalars.count {
                let c = scalars[index]
                index += 1
                if c == "(" { depth += 1; if depth == 1 { continue } }
                if c == ")" { depth -= 1; if depth == 0 { return text } }
                text.append(c)
            }
            return nil
        }
    }
}
