import Postgres

/// A read, resolved: the table or function result at the root and, for each
/// embedded resource, the relationship it follows. Each embedded table is read
/// in a correlated subquery of the same statement, as the same caller, so its own
/// row level security decides which of its rows appear.
struct ReadNode: Sendable {
    /// The FROM item: `"schema"."table"`, or the function's result.
    var source: String
    /// The alias its columns are qualified by: the table's (or function's) own name at
    /// the root, so PostgreSQL's messages name what the caller named; `name_n` below.
    var alias: String
    var items: [SelectItem]
    var embeds: [EmbedNode] = []
    var modifiers: TableQuery.Modifiers
    /// (own column, parent alias, parent column): the correlation with the parent row.
    var joins: [(String, String, String)] = []

    var quotedAlias: String { PostgresQuery.quoteIdentifier(alias) }
}

struct EmbedNode: Sendable {
    /// The key in each parent object: the alias, or the name as written.
    var key: String
    var node: ReadNode
    var toOne: Bool
    var inner: Bool
    /// The lateral subquery's alias.
    var lateral: String
}

/// Turns `select=` embeds into `ReadNode`s, looking foreign keys up in the schema cache.
struct Embedding {
    let cache: SchemaCache
    let exposed: [String]
    private var counter = 0

    init(cache: SchemaCache, exposed: [String]) {
        self.cache = cache
        self.exposed = exposed
    }

    /// The root node over `source` as `alias`; `table` (schema, name) is where its rows
    /// come from for relationships (a table, or the table a function returns rows of).
    mutating func plan(_ query: TableQuery, source: String, alias: String, table: (String, String)?,
                       role: String) async throws(Refusal) -> ReadNode {
        var root = ReadNode(source: source, alias: alias, items: [], modifiers: query.root)
        var used: Set<[String]> = []
        root = try await resolve(root, items: query.select, table: table, path: [], query: query, used: &used, role: role)
        if let unknown = query.embedded.keys.first(where: { !used.contains($0) }) {
            throw PostgRESTError.refusal(400, "PGRST108", "'\(unknown.joined(separator: "."))' is not an embedded resource in this request",
                                         hint: "Verify that '\(unknown.joined(separator: "."))' is included in the 'select' query parameter.")
        }
        try checkOrder(root, name: alias)
        return root
    }

    private mutating func resolve(_ node: ReadNode, items: [SelectItem], table: (String, String)?, path: [String],
                                  query: TableQuery, used: inout Set<[String]>, role: String) async throws(Refusal) -> ReadNode {
        var node = node
        for item in items {
            guard case .embed(let embed) = item else {
                node.items.append(item)
                continue
            }
            guard let (schema, name) = table else {
                throw PostgRESTError.refusal(400, "PGRST200", "Could not find a relationship between '\(node.alias)' and '\(embed.relation)' in the schema cache",
                                             details: "'\(node.alias)' returns no table's rows, so nothing can be embedded from it")
            }
            let keys: [ForeignKey]
            do {
                keys = try await cache.foreignKeys(schema: schema, table: name)
            } catch {
                throw Refusal(PostgRESTError.from(error, role: role))
            }
            let found = Relationship.candidates(from: schema, name, for: embed, keys: keys, exposed: exposed)
            guard let relationship = found.first else {
                throw PostgRESTError.refusal(400, "PGRST200", "Could not find a relationship between '\(name)' and '\(embed.relation)' in the schema cache",
                                             hint: nil, details: "Searched for a foreign key relationship between '\(name)' and '\(embed.relation)'"
                                                + (embed.hint.map { " using the hint '\($0)'" } ?? "") + " in the schema '\(schema)', but no matches were found.")
            }
            guard found.count == 1 else {
                let names = found.map { "'\(embed.relation)!\($0.key.name)'" }.joined(separator: ", ")
                throw PostgRESTError.refusal(300, "PGRST201", "Could not embed because more than one relationship was found for '\(name)' and '\(embed.relation)'",
                                             hint: "Try changing '\(embed.relation)' to one of the following: \(names). Find the desired relationship in the 'details' key.",
                                             details: found.map { "\($0.key.name): \($0.key.schema).\($0.key.table) → \($0.key.targetSchema).\($0.key.targetTable)" }.joined(separator: "; "))
            }
            counter += 1
            let childPath = path + [embed.name]
            used.insert(childPath)
            let alias = Self.fitting(relationship.table + "_\(counter)", else: "embed_\(counter)")
            var child = ReadNode(source: PostgresQuery.quoteIdentifier(relationship.schema) + "." + PostgresQuery.quoteIdentifier(relationship.table),
                                 alias: alias, items: [], modifiers: query.embedded[childPath] ?? TableQuery.Modifiers())
            child.joins = relationship.pairs.map { ($0.0, node.alias, $0.1) }
            child = try await resolve(child, items: embed.items, table: (relationship.schema, relationship.table), path: childPath,
                                      query: query, used: &used, role: role)
            if relationship.toOne && (child.modifiers.limit != nil || child.modifiers.offset != nil) {
                throw PostgRESTError.parse("\(childPath.joined(separator: ".")): limit and offset apply to one-to-many embeds only")
            }
            try checkOrder(child, name: embed.name)
            let lateral = Self.fitting(node.alias + "_" + embed.name + "_\(counter)", else: "embedded_\(counter)")
            node.embeds.append(EmbedNode(key: embed.name, node: child, toOne: relationship.toOne, inner: embed.inner, lateral: lateral))
        }
        return node
    }

    /// `name` when PostgreSQL keeps it whole (63 bytes), else the short `fallback`.
    private static func fitting(_ name: String, else fallback: String) -> String {
        name.utf8.count <= 63 ? name : fallback
    }

    /// `order=rel(col)` needs `rel` to be a to-one resource embedded at that level (PostgREST's PGRST118).
    private func checkOrder(_ node: ReadNode, name: String) throws(Refusal) {
        for term in node.modifiers.order {
            guard let relation = term.relation else { continue }
            guard let embed = node.embeds.first(where: { $0.key == relation }), embed.toOne else {
                throw PostgRESTError.refusal(400, "PGRST118", "A related order on '\(relation)' is not possible",
                                             hint: "order=\(relation)(column) needs '\(relation)' embedded in the select as a to-one (many-to-one or one-to-one) resource of '\(name)'")
            }
        }
    }
}
