import Foundation

extension GridStore {
    /// Groups whose rows this phone has fetched whole.
    public func knownGroups() throws -> Set<UUID> {
        Set(try database.rows("select group_id from known_groups").compactMap { $0[0].text.flatMap(UUID.init(uuidString:)) })
    }

    func markGroupKnown(_ group: UUID) throws {
        try database.run("insert into known_groups (group_id) values (?) on conflict do nothing", [group.lowercased])
    }

    /// Groups the phone holds rows of: known ones, and any a board here belongs to.
    func groupsOnPhone() throws -> Set<UUID> {
        let boards = try database.rows("select distinct group_id from user_grids where group_id is not null")
            .compactMap { $0[0].text.flatMap(UUID.init(uuidString:)) }
        return try knownGroups().union(boards)
    }

    /// A group the person is no longer in leaves the phone (spec §6.7): every row
    /// with its `group_id` goes, nothing is pushed, and its queued rows are dropped (C14).
    public func forgetGroup(_ group: UUID) throws {
        try transaction {
            for photo in try rows(.photos, where: "group_id = ?", [group.lowercased]) { try removeFile(ofPhoto: photo.id) }
            for table in [SyncedTable.photos, .momentEntries, .moments, .userSquares, .userGrids] {
                try database.run("""
                    delete from sync_queue where table_name = ? and row_id in (select id from \(table.rawValue) where group_id = ?)
                    """, [table.rawValue, group.lowercased])
                try database.run("delete from \(table.rawValue) where group_id = ?", [group.lowercased])
            }
            try database.run("delete from known_groups where group_id = ?", [group.lowercased])
        }
    }
}
