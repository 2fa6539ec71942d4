import Foundation

extension GridStore {
    /// The row with `id`, tombstone or not.
    public func row(_ table: SyncedTable, _ id: UUID) throws -> SyncRow? {
        try rows(table, where: "id = ?", [id.lowercased]).first
    }

    /// Rows of `table` matching a SQL condition on its columns.
    public func rows(_ table: SyncedTable, where condition: String = "1", _ values: [any SQLiteBindable] = []) throws -> [SyncRow] {
        try database.rows("select * from \(table.rawValue) where \(condition)", values).map { stored in
            var row = SyncRow(table: table, id: UUID(uuidString: stored["id"].text ?? "") ?? DeterministicID.serverDevice)
            for (index, name) in stored.columns.enumerated() where name != "id" { row.values[name] = stored[index] }
            return row
        }
    }

    /// Writes `row` as it is: every synced column, and the phone's own columns when present.
    func write(_ row: SyncRow) throws {
        let columns = row.table.columns.filter { !$0.local || row.values[$0.name] != nil }.map(\.name)
        let sql = "insert into \(row.table.rawValue) (id, \(columns.joined(separator: ", "))) values (?\(String(repeating: ", ?", count: columns.count))) "
            + "on conflict (id) do update set " + columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try database.run(sql, [row.id.lowercased] + columns.map { row[$0] })
    }

    /// A local change: writes `row` and marks it in the sync queue, in the caller's transaction.
    func save(_ row: SyncRow) throws {
        try write(row)
        try markQueued(row.table, row.id)
    }

    /// Removes a row from the phone altogether (not a tombstone): a left group, an
    /// unshared part, sign-out. A photo's file goes with it.
    func erase(_ table: SyncedTable, _ id: UUID) throws {
        if table == .photos { try removeFile(ofPhoto: id) }
        try database.run("delete from \(table.rawValue) where id = ?", [id.lowercased])
        try database.run("delete from sync_queue where table_name = ? and row_id = ?", [table.rawValue, id.lowercased])
    }

    /// A new row of `table` stamped by this phone: created and updated now, by this device, live.
    func newRow(_ table: SyncedTable, id: UUID? = nil) -> SyncRow {
        let id = id ?? newID()
        let now = now()
        var row = SyncRow(table: table, id: id)
        for column in table.columns where !column.local { row.values[column.name] = .null }
        row.set("created_at", timestamp: now)
        row.set("updated_at", timestamp: now)
        row.set("device_id", uuid: deviceID)
        row.set("deleted", false)
        return row
    }

    /// Stamps a local edit of `row`: updated now, by this device.
    func touch(_ row: inout SyncRow) {
        // Never behind the row's own key, so the edit wins at least on this phone (C1).
        let now = now()
        let previous = row.timestamp("updated_at") ?? now
        row.set("updated_at", timestamp: max(now, previous + 0.000_001))
        row.set("device_id", uuid: deviceID)
    }
}
