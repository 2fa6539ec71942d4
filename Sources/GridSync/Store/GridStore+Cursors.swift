import Foundation

extension GridStore {
    /// The largest `server_updated_at` pulled from `table` so far.
    func cursor(_ table: String) throws -> Timestamp? {
        try database.scalar("select cursor from sync_cursors where table_name = ?", [table]).integer.map(Timestamp.init(microseconds:))
    }

    func setCursor(_ table: String, _ cursor: Timestamp) throws {
        try database.run("""
            insert into sync_cursors (table_name, cursor) values (?, ?)
            on conflict (table_name) do update set cursor = excluded.cursor
            """, [table, cursor.microseconds])
    }

    /// This person's photos whose rows the server has but whose files it has not.
    func photosToUpload() throws -> [SyncRow] {
        guard let me = account.user else { return [] }
        return try rows(.photos, where: """
            deleted = 0 and uploaded_at is null and server_updated_at is not null and local_path is not null and user_id = ?
            """, [me.lowercased])
    }

    /// Photos whose files are uploaded and not yet on this phone.
    func photosToDownload() throws -> [SyncRow] {
        try rows(.photos, where: "deleted = 0 and uploaded_at is not null and local_path is null and storage_path is not null")
    }
}
