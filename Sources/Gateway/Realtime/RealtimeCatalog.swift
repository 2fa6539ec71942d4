import Foundation
import Postgres

/// Which tables deliver postgres_changes (those with the `realtime_changes` trigger)
/// and their columns, read from the catalog and kept briefly.
actor RealtimeCatalog {
    struct Table: Sendable {
        var columnsJSON: String
    }

    private let pool: PostgresPool
    private var tables: [String: (at: ContinuousClock.Instant, table: Table?)] = [:]

    init(pool: PostgresPool) {
        self.pool = pool
    }

    /// The table when it is published for realtime, nil when it is not (or does not exist).
    func published(schema: String, table: String) async throws -> Table? {
        let key = schema + "." + table
        if let cached = tables[key], ContinuousClock.now - cached.at < .seconds(10) { return cached.table }
        let qualified = PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(table)
        let columns: String? = try await pool.withConnection { connection in
            let rows = try await connection.query("""
                select (select coalesce(json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
                                                 order by a.attnum), '[]')::text
                        from pg_attribute a where a.attrelid = to_regclass(\(qualified)) and a.attnum > 0 and not a.attisdropped)
                where exists (select 1 from pg_trigger where tgrelid = to_regclass(\(qualified)) and tgname = 'realtime_changes')
                   or exists (select 1 from pg_trigger where tgname like 'realtime\\_changes\\_as\\_%'
                              and split_part(encode(tgargs, 'escape'), '\\000', 1) = '@' || \(schema) || '.' || \(table))
                """)
            return try rows.first.map { try $0.decode(String.self, at: 0) }
        }
        let entry = columns.map { Table(columnsJSON: $0) }
        tables[key] = (ContinuousClock.now, entry)
        return entry
    }

    /// Every published table, `schema.table`, for saying which are when a join names another.
    func publishedTables() async throws -> [String] {
        try await pool.withConnection { connection in
            try await connection.query("""
                select n.nspname || '.' || c.relname from pg_trigger t
                join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
                where t.tgname = 'realtime_changes'
                union
                select substr(split_part(encode(tgargs, 'escape'), '\\000', 1), 2) from pg_trigger
                where tgname like 'realtime\\_changes\\_as\\_%'
                order by 1
                """).map { try $0.decode(String.self, at: 0) }
        }
    }
}
