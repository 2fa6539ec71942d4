import Postgres

/// SQL assembled for a REST request. Identifiers are quoted, types are checked
/// words, operators come from a fixed table, and every value a client sends is a
/// parameter: nothing from the request reaches the SQL text unquoted.
struct SQLBuilder {
    private(set) var binds: [String] = []

    /// `$n` for a new parameter holding `value` (its type is left for the server to infer).
    mutating func bind(_ value: String) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}

/// `"schema"."table"`, and the alias every statement gives it.
struct TableTarget: Sendable {
    var schema: String
    var table: String

    var qualified: String { PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(table) }
    static let alias = "summit_target"
}

extension TableQuery {
    /// The select list, qualified by the target's alias (`summit_target.*` when empty).
    var selectList: String {
        guard !select.isEmpty else { return TableTarget.alias + ".*" }
        return select.map { item in
            if item.column == "*" { return TableTarget.alias + ".*" }
            var expression = TableTarget.alias + "." + PostgresQuery.quoteIdentifier(item.column)
            if let cast = item.cast { expression = "(" + expression + ")::" + cast }
            let name = item.alias ?? item.column
            return expression + " as " + PostgresQuery.quoteIdentifier(name)
        }.joined(separator: ", ")
    }

    /// `where …` for the filters (empty when there are none), values bound.
    func whereClause(_ builder: inout SQLBuilder) -> String {
        guard !filters.isEmpty else { return "" }
        let conditions = filters.map { filter -> String in
            let column = TableTarget.alias + "." + PostgresQuery.quoteIdentifier(filter.column)
            let condition: String
            switch (filter.op, filter.value) {
            case (.is, .keyword(let keyword)):
                condition = column + " is " + keyword
            case (.in, .list(let items)):
                condition = column + " = any(" + builder.bind(Self.arrayLiteral(items)) + ")"
            case (_, .text(let value)):
                condition = column + " " + Self.sqlOperator(filter.op) + " " + builder.bind(value)
            default:
                condition = "false"
            }
            return filter.negated ? "not (" + condition + ")" : condition
        }
        return " where " + conditions.joined(separator: " and ")
    }

    var orderClause: String {
        guard !order.isEmpty else { return "" }
        return " order by " + order.map { term in
            var text = TableTarget.alias + "." + PostgresQuery.quoteIdentifier(term.column) + (term.descending ? " desc" : " asc")
            if let nullsFirst = term.nullsFirst { text += nullsFirst ? " nulls first" : " nulls last" }
            return text
        }.joined(separator: ", ")
    }

    static func sqlOperator(_ op: Operator) -> String {
        switch op {
        case .eq: "="
        case .neq: "<>"
        case .gt: ">"
        case .gte: ">="
        case .lt: "<"
        case .lte: "<="
        case .like: "like"
        case .ilike: "ilike"
        case .in: "="
        case .is: "is"
        }
    }

    /// `{"a","b"}`: an array literal the server casts to the column's array type.
    static func arrayLiteral(_ items: [String]) -> String {
        "{" + items.map { item in
            "\"" + item.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}"
    }

    // MARK: - Statements
    //
    // Each answers one row: the JSON array of rows (as text), how many rows it
    // returned, and for reads with a count, how many match in all.

    func readStatement(_ target: TableTarget, limit: Int?, offset: Int?, withTotal: Bool) -> PostgresQuery {
        var builder = SQLBuilder()
        let filter = whereClause(&builder)
        var page = "select \(selectList) from \(target.qualified) as \(TableTarget.alias)\(filter)\(orderClause)"
        if let limit { page += " limit \(limit)" }
        if let offset { page += " offset \(offset)" }
        var sql = "with summit_rows as (\(page)) select coalesce(json_agg(summit_rows), '[]')::text, count(*)"
        if withTotal {
            sql += ", (select count(*) from \(target.qualified) as \(TableTarget.alias)\(filter))"
        }
        return builder.query(sql + " from summit_rows")
    }

    /// `insert … select … from json_populate_recordset(…)`, with an `on conflict` clause for upserts.
    func insertStatement(_ target: TableTarget, body: String, columns: [String], conflict: [String]?,
                         resolution: Preferences.Resolution?, returning: Bool) -> PostgresQuery {
        var builder = SQLBuilder()
        let input = builder.bind(body)
        let quoted = columns.map(PostgresQuery.quoteIdentifier).joined(separator: ", ")
        var sql = "with summit_input as (select * from json_populate_recordset(null::\(target.qualified), \(input)::json)), "
        sql += "summit_rows as (insert into \(target.qualified) as \(TableTarget.alias) (\(quoted)) select \(quoted) from summit_input"
        if let conflict, let resolution {
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
        sql += " returning " + (returning ? selectList : "1") + ") "
        sql += returning ? "select coalesce(json_agg(summit_rows), '[]')::text, count(*) from summit_rows"
                         : "select '[]'::text, count(*) from summit_rows"
        return builder.query(sql)
    }

    func updateStatement(_ target: TableTarget, body: String, columns: [String], returning: Bool) -> PostgresQuery {
        var builder = SQLBuilder()
        let input = builder.bind(body)
        let assignments = columns.map { column in
            PostgresQuery.quoteIdentifier(column) + " = summit_input." + PostgresQuery.quoteIdentifier(column)
        }.joined(separator: ", ")
        let filter = whereClause(&builder)
        var sql = "with summit_rows as (update \(target.qualified) as \(TableTarget.alias) set \(assignments) "
        sql += "from (select * from json_populate_record(null::\(target.qualified), \(input)::json)) as summit_input"
        sql += filter + " returning " + (returning ? selectList : "1") + ") "
        sql += returning ? "select coalesce(json_agg(summit_rows), '[]')::text, count(*) from summit_rows"
                         : "select '[]'::text, count(*) from summit_rows"
        return builder.query(sql)
    }

    func deleteStatement(_ target: TableTarget, returning: Bool) -> PostgresQuery {
        var builder = SQLBuilder()
        let filter = whereClause(&builder)
        var sql = "with summit_rows as (delete from \(target.qualified) as \(TableTarget.alias)\(filter) returning "
        sql += (returning ? selectList : "1") + ") "
        sql += returning ? "select coalesce(json_agg(summit_rows), '[]')::text, count(*) from summit_rows"
                         : "select '[]'::text, count(*) from summit_rows"
        return builder.query(sql)
    }
}
