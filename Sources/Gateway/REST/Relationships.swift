import Foundation
import Postgres

/// A foreign key, read from pg_constraint: what embedding follows. `columns` of
/// `schema.table` reference `targetColumns` of `targetSchema.targetTable`.
struct ForeignKey: Sendable, Decodable, Equatable {
    var name: String
    var schema: String
    var table: String
    var columns: [String]
    var targetSchema: String
    var targetTable: String
    var targetColumns: [String]
    /// The referencing columns are unique (a one-to-one relationship).
    var unique: Bool
}

/// One way to embed a resource from a parent: the table reached, whether it is one
/// row or many, and how child columns match parent columns.
struct Relationship: Sendable, Equatable {
    var key: ForeignKey
    var schema: String
    var table: String
    var toOne: Bool
    /// (child column, parent column) pairs.
    var pairs: [(String, String)]

    static func == (lhs: Relationship, rhs: Relationship) -> Bool {
        lhs.key == rhs.key && lhs.toOne == rhs.toOne && lhs.table == rhs.table
    }

    /// The relationships from `schema.table` that `embed` can name, among `keys`: by
    /// the other table's name, the foreign key's name, or (to-one) the referencing
    /// column's name, narrowed by `embed.hint` (a key's name or one of its columns).
    static func candidates(from schema: String, _ table: String, for embed: EmbedRequest, keys: [ForeignKey],
                           exposed: [String]) -> [Relationship] {
        var found: [Relationship] = []
        for key in keys {
            if key.schema == schema && key.table == table && exposed.contains(key.targetSchema) {
                let named = embed.relation == key.targetTable || embed.relation == key.name
                    || (key.columns.count == 1 && embed.relation == key.columns[0])
                if named {
                    found.append(Relationship(key: key, schema: key.targetSchema, table: key.targetTable, toOne: true,
                                              pairs: Array(zip(key.targetColumns, key.columns))))
                }
            }
            if key.targetSchema == schema && key.targetTable == table && exposed.contains(key.schema) {
                if embed.relation == key.table || embed.relation == key.name {
                    found.append(Relationship(key: key, schema: key.schema, table: key.table, toOne: key.unique,
                                              pairs: Array(zip(key.columns, key.targetColumns))))
                }
            }
        }
        if let hint = embed.hint {
            found = found.filter { $0.key.name == hint || $0.key.columns.contains(hint) || $0.key.targetColumns.contains(hint) }
        }
        return found
    }
}

extension SchemaCache {
    /// The columns of `schema.table` in their order (empty when there is no such table).
    func columns(schema: String, table: String) async throws -> [String] {
        try await perTable("columns", schema: schema, table: table, { qualified in
            """
            select attname::text from pg_attribute
            where attrelid = to_regclass(\(qualified)) and attnum > 0 and not attisdropped order by attnum
            """
        }, read: { rows in try rows.map { try $0.decode(String.self, at: 0) } })
    }

    /// Every foreign key from or to `schema.table` (empty when there is no such table).
    func foreignKeys(schema: String, table: String) async throws -> [ForeignKey] {
        try await perTable("foreign keys", schema: schema, table: table, { qualified in
            """
            with target as (select to_regclass(\(qualified)) as oid)
            select coalesce(json_agg(json_build_object(
                     'name', c.conname, 'schema', sn.nspname, 'table', s.relname,
                     'columns', (select json_agg(a.attname order by k.n) from unnest(c.conkey) with ordinality k(attnum, n)
                                 join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum),
                     'targetSchema', tn.nspname, 'targetTable', t.relname,
                     'targetColumns', (select json_agg(a.attname order by k.n) from unnest(c.confkey) with ordinality k(attnum, n)
                                       join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum),
                     'unique', exists (select 1 from pg_index i
                                       where i.indrelid = c.conrelid and i.indisunique and i.indpred is null
                                         and (select array_agg(x order by x) from unnest(i.indkey::int2[]) x)
                                           = (select array_agg(x order by x) from unnest(c.conkey) x)))
                   order by c.conname), '[]')::text
            from pg_constraint c
            join pg_class s on s.oid = c.conrelid join pg_namespace sn on sn.oid = s.relnamespace
            join pg_class t on t.oid = c.confrelid join pg_namespace tn on tn.oid = t.relnamespace
            where c.contype = 'f' and (c.conrelid = (select oid from target) or c.confrelid = (select oid from target))
            """
        }, read: { rows in try JSONDecoder().decode([ForeignKey].self, from: Data(try rows.scalar(String.self).utf8)) })
    }
}
