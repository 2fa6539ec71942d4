import Foundation
import Postgres

/// What REST needs to know about functions and tables, read from the catalog and
/// kept for a short while (the hosted platform's gateway keeps a schema cache too;
/// Summit's refreshes itself, so a migration is seen within `lifetime`).
actor SchemaCache {
    /// One overload of a function: its inputs and what it returns.
    struct Function: Sendable, Decodable {
        struct Argument: Sendable, Decodable {
            var name: String
            var type: String
        }

        var arguments: [Argument]
        /// How many trailing arguments have defaults.
        var defaults: Int
        var returnsSet: Bool
        /// `c` composite, `p` pseudo (record, void), `b` base, …
        var typeKind: String
        var typeName: String
        /// `i`mmutable, `s`table or `v`olatile.
        var volatility: String

        var requiredNames: Set<String> { Set(arguments.prefix(arguments.count - defaults).map(\.name)) }
    }

    private let pool: PostgresPool
    private let lifetime: Duration
    private var functions: [String: (at: ContinuousClock.Instant, overloads: [Function])] = [:]
    private var primaryKeys: [String: (at: ContinuousClock.Instant, columns: [String])] = [:]

    init(pool: PostgresPool, lifetime: Duration = .seconds(10)) {
        self.pool = pool
        self.lifetime = lifetime
    }

    /// Every overload of `schema.name` callable through REST (plain functions, not procedures).
    func overloads(schema: String, name: String) async throws -> [Function] {
        let key = schema + "." + name
        if let cached = functions[key], ContinuousClock.now - cached.at < lifetime { return cached.overloads }
        let rows = try await pool.withConnection { connection in
            try await connection.query("""
                select coalesce((
                         select json_agg(json_build_object('name', coalesce(a.name, ''), 'type', format_type(a.type, null)) order by a.ord)
                         from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]),
                                     coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs::int])),
                                     coalesce(p.proargnames, array_fill(''::text, array[coalesce(array_length(p.proallargtypes, 1), p.pronargs::int)])))
                              with ordinality as a(type, mode, name, ord)
                         where a.mode in ('i', 'b', 'v')), '[]')::text as arguments,
                       p.pronargdefaults::int as defaults, p.proretset as returns_set,
                       t.typtype::text as type_kind, t.typname::text as type_name, p.provolatile::text as volatility
                from pg_proc p
                join pg_namespace n on n.oid = p.pronamespace
                join pg_type t on t.oid = p.prorettype
                where n.nspname = \(schema) and p.proname = \(name) and p.prokind = 'f'
                order by p.oid
                """).decode(Row.self)
        }
        let overloads = try rows.map { row in
            Function(arguments: try JSONDecoder().decode([Function.Argument].self, from: Data(row.arguments.utf8)),
                     defaults: row.defaults, returnsSet: row.returnsSet, typeKind: row.typeKind,
                     typeName: row.typeName, volatility: row.volatility)
        }
        functions[key] = (ContinuousClock.now, overloads)
        return overloads
    }

    private struct Row: Decodable {
        var arguments: String
        var defaults: Int
        var returnsSet: Bool
        var typeKind: String
        var typeName: String
        var volatility: String
    }

    /// The primary key's columns of `schema.table`, in key order (empty when it has none or does not exist).
    func primaryKey(schema: String, table: String) async throws -> [String] {
        let key = schema + "." + table
        if let cached = primaryKeys[key], ContinuousClock.now - cached.at < lifetime { return cached.columns }
        let qualified = PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(table)
        let columns = try await pool.withConnection { connection in
            try await connection.query("""
                select a.attname::text
                from pg_index i
                join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                where i.indrelid = to_regclass(\(qualified)) and i.indisprimary
                order by array_position(i.indkey::int2[], a.attnum)
                """).map { try $0.decode(String.self, at: 0) }
        }
        primaryKeys[key] = (ContinuousClock.now, columns)
        return columns
    }
}
