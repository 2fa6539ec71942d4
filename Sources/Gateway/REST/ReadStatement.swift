import Postgres

/// SQL assembled for a REST request. Identifiers are quoted, types are checked
/// words, operators come from a fixed table, and every value a client sends is a
/// parameter: nothing from the request reaches the SQL text unquoted.
struct SQLBuilder {
    private(set) var binds: [String] = []

    init(binds: [String] = []) {
        self.binds = binds
    }

    /// `$n` for a new parameter holding `value` (its type is left for the server to infer).
    mutating func bind(_ value: String) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}

/// The SELECT of a `ReadNode` tree, and the statement around it that answers one
/// row: the body, how many rows it holds, and (when asked) how many match in all.
enum ReadStatement {
    /// How the rows become the response body.
    enum Body: Sendable, Equatable {
        /// A JSON array of objects (`nulls=stripped`: without null members).
        case array(stripNulls: Bool)
        /// The first row as an object: a function returning one composite.
        case object
        /// An array of one column's values (a function returning `setof` a scalar), or the
        /// first value alone (a function returning one scalar).
        case values(column: String, single: Bool)
        /// `text/csv`: a header line of column names, then one line a row.
        case csv
    }

    static func quote(_ name: String) -> String { PostgresQuery.quoteIdentifier(name) }

    /// `select … from source as alias <lateral joins> where … order by … limit … offset …`.
    static func select(_ node: ReadNode, _ builder: inout SQLBuilder, limit: Int?, offset: Int?) -> String {
        let alias = node.quotedAlias
        var columns: [String] = node.items.compactMap { item in
            switch item {
            case .star:
                return alias + ".*"
            case .column(let name, let rename, let cast):
                var expression = alias + "." + quote(name)
                if let cast { expression = "(" + expression + ")::" + cast }
                return expression + " as " + quote(rename ?? name)
            case .embed:
                return nil
            }
        }
        if columns.isEmpty && node.embeds.isEmpty { columns = [alias + ".*"] }
        var joins: [String] = []
        for embed in node.embeds {
            let lateral = quote(embed.lateral)
            let inner = select(embed.node, &builder, limit: embed.node.modifiers.limit, offset: embed.node.modifiers.offset)
            let kind = embed.inner ? "inner" : "left"
            if embed.toOne {
                // The whole-row value of an outer join's missing side is NULL: null when no row (or RLS hides it).
                columns.append("row_to_json(\(lateral).*) as " + quote(embed.key))
                joins.append("\(kind) join lateral (\(inner)) as \(lateral) on true")
            } else {
                // json_agg over no rows is NULL, which is what !inner drops.
                columns.append("coalesce(\(lateral).\(lateral), '[]') as " + quote(embed.key))
                joins.append("\(kind) join lateral (select json_agg(\(lateral)) as \(lateral) from (\(inner)) as \(lateral)) as \(lateral) on "
                             + (embed.inner ? "\(lateral).\(lateral) is not null" : "true"))
            }
        }
        var sql = "select " + columns.joined(separator: ", ") + " from " + node.source + " as " + alias
        if !joins.isEmpty { sql += " " + joins.joined(separator: " ") }
        sql += whereClause(node, &builder, existsForInner: false)
        if !node.modifiers.order.isEmpty {
            sql += " order by " + node.modifiers.order.map { term in
                let owner = term.relation.flatMap { relation in node.embeds.first { $0.key == relation }.map { quote($0.lateral) } } ?? alias
                var text = owner + "." + quote(term.column) + (term.descending ? " desc" : " asc")
                if let nullsFirst = term.nullsFirst { text += nullsFirst ? " nulls first" : " nulls last" }
                return text
            }.joined(separator: ", ")
        }
        if let limit { sql += " limit \(limit)" }
        if let offset { sql += " offset \(offset)" }
        return sql
    }

    /// The correlation with the parent, then the filters; for counting, `exists` in
    /// place of each `!inner` join (which would otherwise need the embedded rows built).
    private static func whereClause(_ node: ReadNode, _ builder: inout SQLBuilder, existsForInner: Bool) -> String {
        var conditions = node.joins.map { own, parent, column in
            node.quotedAlias + "." + quote(own) + " = " + quote(parent) + "." + quote(column)
        }
        conditions += node.modifiers.conditions.map { $0.sql(on: node.quotedAlias, &builder) }
        if existsForInner {
            for embed in node.embeds where embed.inner {
                conditions.append("exists (select 1 " + countSource(embed.node, &builder) + ")")
            }
        }
        return conditions.isEmpty ? "" : " where " + conditions.joined(separator: " and ")
    }

    /// `from … where …` of the rows a count counts: every filter, no page.
    static func countSource(_ node: ReadNode, _ builder: inout SQLBuilder) -> String {
        "from " + node.source + " as " + node.quotedAlias + whereClause(node, &builder, existsForInner: true)
    }

    /// The statement: `prelude` (CTEs before the rows, like a function call), the page of
    /// rows, then one row of (body text, rows in the page[, total]).
    static func statement(_ root: ReadNode, prelude: String?, body: Body, exactTotal: Bool, limit: Int?, offset: Int?,
                          _ builder: inout SQLBuilder) -> String {
        var sql = "with " + (prelude.map { $0 + ", " } ?? "")
        sql += "summit_source as (" + select(root, &builder, limit: limit, offset: offset) + ") select "
        sql += bodyExpression(body) + ", count(*)"
        if exactTotal { sql += ", (select count(*) " + countSource(root, &builder) + ")" }
        return sql + " from summit_source"
    }

    static func bodyExpression(_ body: Body) -> String {
        switch body {
        case .array(let stripNulls):
            return stripNulls ? "coalesce(json_strip_nulls(json_agg(summit_source)), '[]')::text"
                              : "coalesce(json_agg(summit_source), '[]')::text"
        case .object:
            // One row: its own JSON, without aggregating and taking the aggregate apart again.
            return "coalesce((select row_to_json(summit_one) from summit_source as summit_one limit 1), 'null')::text"
        case .values(let column, let single):
            let value = "summit_source." + quote(column)
            return single ? "coalesce((select to_json(\(value)) from summit_source limit 1), 'null')::text"
                          : "coalesce(json_agg(\(value)), '[]')::text"
        case .csv:
            // As PostgREST writes CSV: the first row's keys, then each row's composite text without its parentheses.
            return "(select coalesce(string_agg(summit_key, ','), '') from (select json_object_keys(summit_first) as summit_key "
                + "from (select row_to_json(summit_head) as summit_first from summit_source as summit_head limit 1) as summit_one) as summit_keys)"
                + " || chr(10) || coalesce(string_agg(substring(summit_source::text, 2, length(summit_source::text) - 2), chr(10)), '')"
        }
    }

    /// `explain (format json) select 1 …`: the planner's estimate, for `count=planned`.
    static func plannedCount(_ root: ReadNode, prelude: String?, _ builder: inout SQLBuilder) -> String {
        "explain (format json) " + (prelude.map { "with " + $0 + " " } ?? "") + "select 1 " + countSource(root, &builder)
    }
}
