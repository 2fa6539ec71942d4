import Foundation
import GridSync
import Postgres
import Testing

/// Group grids in sync (spec §6.7, C9–C14): joining, leaving, unshares, conversion.
@Suite(.serialized) struct GroupTests {
    /// ann's board with two moments, made a group with ben in it.
    private func annsGroup(_ world: SyncWorld) async throws -> (ann: UUID, ben: UUID, annPhone: Phone, benPhone: Phone, board: UUID) {
        let ann = try await world.person("ann"), ben = try await world.person("ben")
        try await world.befriend(ann, ben)
        let annPhone = try world.phone("ann-1", of: ann), benPhone = try world.phone("ben-1", of: ben)
        let board = try annPhone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
        try annPhone.store.logMoment(board: board, position: 24, MomentDraft(title: "Tea", body: "Mint, too hot."))
        try annPhone.store.logMoment(board: board, position: 17, MomentDraft(title: "Kite", body: "It flew."))
        try await annPhone.sync()
        try await benPhone.sync()
        try await world.startGroup(board, owner: ann, members: [ben])
        return (ann, ben, annPhone, benPhone, board)
    }

    @Test func aGroupJustJoinedIsFetchedWholeThoughItsRowsAreOlderThanTheCursors() async throws {
        try await SyncWorld.run { world in
            let (ann, ben, annPhone, benPhone, board) = try await annsGroup(world)
            // The group's rows were last written long before ben's cursors reach.
            try await world.owner.transaction { owner in
                try await owner.simpleQuery("set local session_replication_role = replica")
                for table in ["user_grids", "user_squares", "moments", "moment_entries"] {
                    try await owner.query("""
                        update grids.\(unsafeRaw: table) set server_updated_at = server_updated_at - interval '1 day' where group_id = \(board)
                        """)
                }
            }
            let report = try await benPhone.sync()
            #expect(report.groupsJoined == [board])
            let seen = try #require(try benPhone.store.board(board))
            #expect(seen.groupID == board)
            #expect(seen.squares.filter { $0.state == .done }.map(\.position) == [17, 24])
            // ann's words became her Private entries (start_group): ben does not get them.
            #expect(try benPhone.rows(.momentEntries).isEmpty)
            try await expectPhone(benPhone, equalsServerFor: ben, in: world)
            try await annPhone.sync()
            #expect(try annPhone.rows(.momentEntries).count == 2)
            try await expectPhone(annPhone, equalsServerFor: ann, in: world)
        }
    }

    @Test func aGroupJustLeftLeavesThePhoneWithItsQueuedRows() async throws {
        try await SyncWorld.run { world in
            let (_, ben, _, benPhone, board) = try await annsGroup(world)
            try await benPhone.sync()
            benPhone.isOnline = false
            let moment = try benPhone.store.logMoment(board: board, position: 23, MomentDraft(title: "Offline", body: "Mine."))
            #expect(try benPhone.store.queue().count == 2, "the moment and ben's entry")
            // ben leaves from another device, while this phone is offline.
            try await world.rpc(ben, "select grids.leave_group(\(board))::text")
            benPhone.isOnline = true
            let report = try await benPhone.sync()
            #expect(report.groupsLeft == [board])
            #expect(report.pushedCount == 0, "nothing of a group left is pushed (C14)")
            #expect(try benPhone.store.queue().isEmpty)
            #expect(try benPhone.store.board(board) == nil)
            #expect(try benPhone.store.row(.moments, moment) == nil)
            for table in [SyncedTable.userSquares, .moments, .momentEntries] {
                #expect(try benPhone.store.rows(table, where: "group_id = ?", [board.lowercased]).isEmpty, "\(table.rawValue)")
            }
            #expect(try await world.scalar("select count(*) from grids.moments where id = \(moment)", as: Int.self) == 0)
        }
    }

    @Test func anEntryOrPhotoMadePrivateLeavesTheOtherPhones() async throws {
        try await SyncWorld.run { world in
            let (ann, ben, annPhone, benPhone, board) = try await annsGroup(world)
            try await annPhone.sync()
            let tea = try #require(try annPhone.store.board(board)?.squares[24].momentID)
            let entry = try #require(try annPhone.rows(.momentEntries).values.first { $0.uuid("moment_id") == tea }?.id)
            try annPhone.store.setPartAudience(.momentEntries, entry, .group)
            let photo = try annPhone.store.addPhoto(moment: tea, bytes: Array("a webp".utf8), audience: .group)
            try await annPhone.sync()
            try await benPhone.sync()
            #expect(try benPhone.store.row(.momentEntries, entry)?.text("body") == "Mint, too hot.")
            #expect(try benPhone.store.photoFile(photo) != nil, "ben has the Group photo's file")

            try annPhone.store.setPartAudience(.momentEntries, entry, .private)
            try annPhone.store.setPartAudience(.photos, photo, .private)
            try await annPhone.sync()
            let report = try await benPhone.sync()
            #expect(report.unshared == 2)
            #expect(try benPhone.store.row(.momentEntries, entry) == nil)
            #expect(try benPhone.store.row(.photos, photo) == nil)
            #expect(!FileManager.default.fileExists(atPath: benPhone.store.folder.appendingPathComponent("photos/\(photo.lowercased).webp").path))
            try await expectPhone(benPhone, equalsServerFor: ben, in: world)

            // Shared again: it comes back (its copy is newer than the unshare, P5).
            try annPhone.store.setPartAudience(.momentEntries, entry, .group)
            try await annPhone.sync()
            try await benPhone.sync()
            #expect(try benPhone.store.row(.momentEntries, entry)?.text("body") == "Mint, too hot.")
            try await expectPhone(annPhone, equalsServerFor: ann, in: world)
        }
    }

    @Test func aBoardTurnedIntoAGroupTakesTheServersRewriteWhateverTheTimestamps() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann"), ben = try await world.person("ben")
            try await world.befriend(ann, ben)
            let phone1 = try world.phone("ann-1", of: ann)
            let phone2 = try world.phone("ann-2", of: ann, skew: 8 * 60)  // 8 minutes fast: its stamps beat the rewrite's
            let board = try phone1.store.addBoard(grid: DeterministicID.starterGrid("small-joys"), audience: .friends)
            let moment = try phone1.store.logMoment(board: board, position: 24, MomentDraft(title: "Tea", body: "Mint.", audience: .friends))
            try await phone1.sync()
            try await phone2.sync()

            // Offline, phone 2 edits the moment's title and words; meanwhile phone 1 makes the board a group.
            phone2.isOnline = false
            try phone2.store.editMoment(moment, MomentChange(title: "Tea, outside", body: "Mint, on the step."))
            try await world.startGroup(board, owner: ann, members: [ben])
            phone2.isOnline = true
            let report = try await phone2.sync()
            #expect(report.failures.isEmpty, "\(report.failures)")

            let row = try #require(try phone2.store.row(.moments, moment))
            #expect(row.groupID == board, "the rewrite wins (C13, P4)")
            #expect(row.text("audience") == "private" && row.text("body") == "")
            #expect(row.text("title") == "Tea, outside", "the queued edit went on top")
            let entry = try #require(try phone2.store.row(.momentEntries, DeterministicID.groupEntry(moment: moment, user: ann)))
            #expect(entry.text("body") == "Mint, on the step.", "the words are the entry's now, edit included, once")
            #expect(entry.text("audience") == "private")
            try await phone1.sync()
            for phone in [phone1, phone2] { try await expectPhone(phone, equalsServerFor: ann, in: world) }
        }
    }
}
