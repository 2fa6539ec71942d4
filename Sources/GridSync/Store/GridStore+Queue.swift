import Foundation

extension GridStore {
    /// Marks a row changed: a new entry, or the next version of a queued one. A new
    /// change starts the retry schedule afresh (it may be what fixes the failure).
    func markQueued(_ table: SyncedTable, _ id: UUID) throws {
        try database.run("""
            insert into sync_queue (table_name, row_id, version, queued_at) values (?, ?, 1, ?)
            on conflict (table_name, row_id) do update set version = version + 1, attempts = 0,
              first_failed_at = null, next_attempt_at = null, last_error = null, couldnt_sync = 0
            """, [table.rawValue, id.lowercased, now().microseconds])
    }

    /// Everything queued, oldest first.
    public func queue() throws -> [QueueEntry] {
        try queueEntries(where: "1", [])
    }

    /// The queued rows of `table` a push should send now: not "couldn't sync", and due.
    func dueEntries(_ table: SyncedTable, at now: Timestamp) throws -> [QueueEntry] {
        try queueEntries(where: "table_name = ? and couldnt_sync = 0 and (next_attempt_at is null or next_attempt_at <= ?)",
                         [table.rawValue, now.microseconds])
    }

    func queueEntry(_ table: SyncedTable, _ id: UUID) throws -> QueueEntry? {
        try queueEntries(where: "table_name = ? and row_id = ?", [table.rawValue, id.lowercased]).first
    }

    func isQueued(_ table: SyncedTable, _ id: UUID) throws -> Bool {
        try database.scalar("select count(*) from sync_queue where table_name = ? and row_id = ?",
                            [table.rawValue, id.lowercased]).int ?? 0 > 0
    }

    private func queueEntries(where condition: String, _ values: [any SQLiteBindable]) throws -> [QueueEntry] {
        try database.rows("select * from sync_queue where \(condition) order by queued_at, table_name, row_id", values).compactMap { row in
            guard let table = row["table_name"].text.flatMap(SyncedTable.init(rawValue:)),
                  let id = row["row_id"].text.flatMap(UUID.init(uuidString:)) else { return nil }
            return QueueEntry(table: table, rowID: id, version: row["version"].int ?? 0,
                              queuedAt: Timestamp(microseconds: row["queued_at"].integer ?? 0),
                              attempts: row["attempts"].int ?? 0,
                              firstFailedAt: row["first_failed_at"].integer.map(Timestamp.init(microseconds:)),
                              nextAttemptAt: row["next_attempt_at"].integer.map(Timestamp.init(microseconds:)),
                              lastError: row["last_error"].text, couldntSync: row["couldnt_sync"].bool ?? false)
        }
    }

    /// A push of `entry` failed with `code`: the entry moves on in `schedule`, unless the
    /// row changed again meanwhile (then the new version is simply due).
    func recordFailure(_ entry: QueueEntry, code: String, schedule: RetrySchedule) throws {
        guard let current = try queueEntry(entry.table, entry.rowID), current.version == entry.version else { return }
        let failed = schedule.failed(current, code: code, at: now())
        try database.run("""
            update sync_queue set attempts = ?, first_failed_at = ?, next_attempt_at = ?, last_error = ?, couldnt_sync = ?
            where table_name = ? and row_id = ?
            """, [failed.attempts, failed.firstFailedAt?.microseconds, failed.nextAttemptAt?.microseconds,
                  failed.lastError, failed.couldntSync, entry.table.rawValue, entry.rowID.lowercased])
    }

    /// Clears `entry` if the row has not changed since that version was pushed.
    /// Returns false when it has (the newer version stays queued).
    func clearQueued(_ entry: QueueEntry) throws -> Bool {
        try database.run("delete from sync_queue where table_name = ? and row_id = ? and version = ?",
                         [entry.table.rawValue, entry.rowID.lowercased, entry.version]) > 0
    }

    /// Settings' "Try again": every entry marked "couldn't sync" starts its schedule afresh.
    @discardableResult
    public func retryCouldntSync() throws -> Int {
        try database.run("""
            update sync_queue set couldnt_sync = 0, attempts = 0, first_failed_at = null, next_attempt_at = null
            where couldnt_sync = 1
            """)
    }
}
