import Postgres

/// `"schema"."table"`, aliased by its own name so PostgreSQL's messages name the
/// table the caller named.
struct TableTarget: Sendable {
    var schema: String
    var table: String

    var qualified: String { PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(table) }
    var alias: String { PostgresQuery.quoteIdentifier(table) }
}

/// Inserts, updates and deletes. Each answers one row: the JSON of the rows it
/// returns (read back through `ReadStatement`, so `select=` may embed), and how
/// many rows it changed.
extension TableQuery {
    /// The node that reads the changed rows back, with what `select=` asked for (nil: nothing returned).
    func returningNode(_ target: TableTarget, resolved: ReadNode?) -> ReadNode? {
        guard var node = resolved else { return nil }
        node.source = "summit_mutation"
        node.modifiers = Modifiers()
        return node
    }

    /// What the mutation returns for `node` to read: the selected columns and those
    /// embedded resources join on, or every column for `*` (RETURNING needs the caller's
    /// SELECT privilege on each, so no more than asked).
    static func returningList(_ node: ReadNode?, _ target: TableTarget) -> String {
        guard let node else { return "1" }
        var names: [String] = []
        for item in node.items {
            switch item {
            case .star: return target.alias + ".*"
            case .column(let name, _, _): if !names.contains(name) { names.append(name) }
            case .embed: break
            }
        }
        if node.items.isEmpty && node.embeds.isEmpty { return target.alias + ".*" }
        for embed in node.embeds {
            for (_, _, parentColumn) in embed.node.joins where !names.contains(parentColumn) { names.append(parentColumn) }
        }
        return names.map { target.alias + "." + PostgresQuery.quoteIdentifier($0) }.joined(separator: ", ")
    }

    private static func finish(_ mutation: String, prelude: String, returning node: ReadNode?, body: ReadStatement.Body,
                               _ builder: inout SQLBuilder) -> String {
        var sql = "with " + prelude + "summit_mutation as (" + mutation + ") "
        guard let node else { return sql + "select '[]'::text, count(*) from summit_mutation" }
        sql += ", summit_source as (" + ReadStatement.select(node, &builder, limit: nil, offset: nil) + ") "
        return sql + "select " + ReadStatement.bodyExpression(body) + ", count(*) from summit_source"
    }

    /// `insert … select … from json_populate_recordset(…)`, with an `on conflict` clause for upserts.
    /// `handedToTrigger`: the target takes inserts through an INSTEAD OF trigger, which is told the
    /// upsert instead, in the transaction setting `summit.upsert` (`merge-duplicates` or
    /// `ignore-duplicates`, a colon, the conflict columns), set before the first row reaches it.
    func insertStatement(_ target: TableTarget, body: String, columns: [String], conflict: [String]?,
                         resolution: Preferences.Resolution?, handedToTrigger: Bool = false,
                         returning node: ReadNode?, format: ReadStatement.Body) -> PostgresQuery {
        var builder = SQLBuilder()
        let input = builder.bind(body)
        let quoted = columns.map(PostgresQuery.quoteIdentifier).joined(separator: ", ")
        var prelude = "summit_input as (select * from json_populate_recordset(null::\(target.qualified), \(input)::json)"
        if handedToTrigger, let conflict, let resolution {
            let upsert = builder.bind((resolution == .ignoreDuplicates ? "ignore-duplicates:" : "merge-duplicates:")
                                      + conflict.joined(separator: ","))
            prelude += " where set_config('summit.upsert', \(upsert), true) is not null"
        }
        prelude += "), "
        var sql = "insert into \(target.qualified) as \(target.alias) (\(quoted)) select \(quoted) from summit_input"
        if let conflict, let resolution, !handedToTrigger {
            sql += " on conflict (" + conflict.map(PostgresQuery.quoteIdentifier).joined(separator: ", ") + ")"
            let updatable = columns.filter { !conflict.contains($0) }
            if resolution == .ignoreDuplicates || updatable.isEmpty {
                sql += " do nothing"
            } else {
                sql += " do update set " + updatable.map { column in
                    PostgresQuery.quoteIdentifier(column) + " = excluded." + PostgresQuery.quoteIdentifier(column)
                }.joined(separator: ", ")
            }
        }
        sql += " returning " + Self.returningList(node, target)
        return builder.query(Self.finish(sql, prelude: prelude, returning: node, body: format, &builder))
    }

    func updateStatement(_ target: TableTarget, body: String, columns: [String], returning node: ReadNode?,
                         format: ReadStatement.Body) -> PostgresQuery {
        var builder = SQLBuilder()
        let input = builder.bind(body)
        let assignments = columns.map { column in
            PostgresQuery.quoteIdentifier(column) + " = summit_input." + PostgresQuery.quoteIdentifier(column)
        }.joined(separator: ", ")
        var sql = "update \(target.qualified) as \(target.alias) set \(assignments) "
        sql += "from (select * from json_populate_record(null::\(target.qualified), \(input)::json)) as summit_input"
        sql += whereClause(target, &builder) + " returning " + Self.returningList(node, target)
        return builder.query(Self.finish(sql, prelude: "", returning: node, body: format, &builder))
    }

    func deleteStatement(_ target: TableTarget, returning node: ReadNode?, format: ReadStatement.Body) -> PostgresQuery {
        var builder = SQLBuilder()
        var sql = "delete from \(target.qualified) as \(target.alias)"
        sql += whereClause(target, &builder) + " returning " + Self.returningList(node, target)
        return builder.query(Self.finish(sql, prelude: "", returning: node, body: format, &builder))
    }

    /// `where …` for the root's filters and trees (empty when there are none), values bound.
    private func whereClause(_ target: TableTarget, _ builder: inout SQLBuilder) -> String {
        guard !root.conditions.isEmpty else { return "" }
        return " where " + root.conditions.map { $0.sql(on: target.alias, &builder) }.joined(separator: " and ")
    }
}
