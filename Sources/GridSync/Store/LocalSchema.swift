/// The phone's SQLite schema: the synced tables (the same columns as the
/// server's, plus the phone's own), the sync queue, and sync bookkeeping.
enum LocalSchema {
    static var statements: [String] {
        var statements = SyncedTable.allCases.map { table in
            let columns = ["id text primary key"] + table.columns.map { column in
                "\(column.name) \(sqliteType(column.kind))"
            }
            return "create table if not exists \(table.rawValue) (\(columns.joined(separator: ", ")))"
        }
        statements += [
            "create index if not exists user_squares_board on user_squares (user_grid_id, position)",
            "create index if not exists moments_square on moments (user_square_id)",
            "create index if not exists moments_board on moments (user_grid_id)",
            "create index if not exists moment_entries_moment on moment_entries (moment_id)",
            "create index if not exists photos_moment on photos (moment_id)",
            "create index if not exists user_grids_group on user_grids (group_id)",
            // One entry per changed row; `version` counts local writes, so a push answer
            // applies only to the version it answered (spec §6.2).
            """
            create table if not exists sync_queue (
              table_name text not null, row_id text not null, version integer not null,
              queued_at integer not null, attempts integer not null default 0,
              first_failed_at integer, next_attempt_at integer, last_error text,
              couldnt_sync integer not null default 0,
              primary key (table_name, row_id))
            """,
            "create table if not exists sync_cursors (table_name text primary key, cursor integer not null)",
            "create table if not exists known_groups (group_id text primary key)",
            "create table if not exists settings (key text primary key, value text not null)",
            // The starter shelf as first started here: re-keyed to the account's ids when adopted.
            "create table if not exists shelf_start (starter_key text primary key, board_id text not null)",
        ]
        return statements
    }

    static func sqliteType(_ kind: ColumnKind) -> String {
        switch kind {
        case .uuid, .text, .date, .array: "text"
        case .timestamp, .bool, .int: "integer"
        }
    }
}
