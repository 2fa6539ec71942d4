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
        /// The return type's schema: with `typeName`, the table a `setof table` function's rows embed from.
        var typeSchema: String
        /// `i`mmutable, `s`table or `v`olatile.
        var volatility: String
        /// Which of anon, authenticated and service_role may execute it: a lookup error's
        /// hint lists only the overloads the caller could call.
        var executableBy: [String]

        var requiredNames: Set<String> { Set(arguments.prefix(arguments.count - defaults).map(\.name)) }
    }

    let pool: PostgresPool
    let lifetime: Duration
    private var functions: [String: (at: ContinuousClock.Instant, overloads: [Function])] = [:]
    /// Per-table catalog reads (primary key, columns, foreign keys), by kind and table.
    private var tables: [String: (at: ContinuousClock.Instant, value: any Sendable)] = [:]

    init(pool: PostgresPool, lifetime: Duration = .seconds(10)) {
        self.pool = pool
        self.lifetime = lifetime
    }

    /// Every overload of `schema.name` callable through REST (plain functions, not procedures).
    func overloads(schema: String, name: String) async throws -> [Function] {
        let key = schema + "." + name
        if let cached = functions[key], ContinuousClock.now - cached.at < lifetime { return cached.overloads }
        let refreshed = try await refreshing(functions[key]?.overloads) { try await pool.withConnection { connection in
            try await connection.query("""
                select coalesce((
                         select json_agg(json_build_object('name', coalesce(a.name, ''), 'type', format_type(a.type, null)) order by a.ord)
                         from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]),
                                     coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs::int])),
                                     coalesce(p.proargnames, array_fill(''::text, array[coalesce(array_length(p.proallargtypes, 1), p.pronargs::int)])))
                              with ordinality as a(type, mode, name, ord)
                         where a.mode in ('i', 'b', 'v')), '[]')::text as arguments,
                       p.pronargdefaults::int as defaults, p.proretset as returns_set,
                       t.typtype::text as type_kind, t.typname::text as type_name, tn.nspname::text as type_schema,
                       p.provolatile::text as volatility,
                       array_to_string(array_remove(array[
                         case when has_function_privilege('anon', p.oid, 'execute') then 'anon' end,
                         case when has_function_privilege('authenticated', p.oid, 'execute') then 'authenticated' end,
                         case when has_function_privilege('service_role', p.oid, 'execute') then 'service_role' end], null), ',') as executable_by
                from pg_proc p
                join pg_namespace n on n.oid = p.pronamespace
                join pg_type t on t.oid = p.prorettype
                join pg_namespace tn on tn.oid = t.typnamespace
                where n.nspname = \(schema) and p.proname = \(name) and p.prokind = 'f'
                order by p.oid
                """).decode(Row.self)
        } }
        let rows: [Row]
        switch refreshed {
        case .fresh(let read): rows = read
        case .stale(let overloads): return overloads
        }
        let overloads = try rows.map { row in
            Function(arguments: try JSONDecoder().decode([Function.Argument].self, from: Data(row.arguments.utf8)),
                     defaults: row.defaults, returnsSet: row.returnsSet, typeKind: row.typeKind,
                     typeName: row.typeName, typeSchema: row.typeSchema, volatility: row.volatility,
                     executableBy: row.executableBy.split(separator: ",").map(String.init))
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
        var typeSchema: String
        var volatility: String
        var executableBy: String
    }

    /// What `read` makes of `query` (given the table's quoted, qualified name), kept for
    /// `lifetime` under `kind` and the table: every per-table catalog read goes through here.
    func perTable<T: Sendable>(_ kind: String, schema: String, table: String, _ query: @Sendable (String) -> PostgresQuery,
                               read: @escaping @Sendable (PostgresRows) throws -> T) async throws -> T {
        let key = kind + ":" + schema + "." + table
        if let cached = tables[key], ContinuousClock.now - cached.at < lifetime, let value = cached.value as? T { return value }
        let statement = query(PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(table))
        switch try await refreshing(tables[key]?.value as? T, {
            try await pool.withConnection { connection in try read(try await connection.query(statement)) }
        }) {
        case .fresh(let value):
            tables[key] = (ContinuousClock.now, value)
            return value
        case .stale(let value):
            return value
        }
    }

    enum Refreshed<Fresh: Sendable, Stale: Sendable>: Sendable {
        case fresh(Fresh)
        case stale(Stale)
    }

    /// Reads the catalog again; while the database cannot be reached (a restart, a failover)
    /// an entry it read before answers instead, so requests a standby serves go on.
    private func refreshing<Fresh: Sendable, Stale: Sendable>(
        _ cached: Stale?, _ read: () async throws -> Fresh
    ) async throws -> Refreshed<Fresh, Stale> {
        do {
            return .fresh(try await read())
        } catch let error as PostgresError where error.isServerUnavailable {
            guard let cached else { throw error }
            return .stale(cached)
        }
    }

    /// The primary key's columns of `schema.table`, in key order (empty when it has none or does not exist).
    func primaryKey(schema: String, table: String) async throws -> [String] {
        try await perTable("primary key", schema: schema, table: table, { qualified in
            """
            select a.attname::text
            from pg_index i
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
            where i.indrelid = to_regclass(\(qualified)) and i.indisprimary
            order by array_position(i.indkey::int2[], a.attnum)
            """
        }, read: { rows in try rows.map { try $0.decode(String.self, at: 0) } })
    }

    /// Whether inserts into `schema.table` go through an INSTEAD OF trigger (a face's view):
    /// PostgreSQL takes no `on conflict` there, so an upsert's resolution is the trigger's to apply.
    func insertsThroughTrigger(schema: String, table: String) async throws -> Bool {
        try await perTable("instead of insert", schema: schema, table: table, { qualified in
            // tgtype: 4 is INSERT, 64 INSTEAD.
            "select exists (select 1 from pg_trigger where tgrelid = to_regclass(\(qualified)) and tgtype & 68 = 68)"
        }, read: { rows in try rows.scalar(Bool.self) })
    }
}
