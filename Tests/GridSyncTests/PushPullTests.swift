import Foundation
import GridSync
import Postgres
import Testing

/// Push and pull between two phones of one person, through a real server.
@Suite(.serialized) struct PushPullTests {
    @Test func aMomentLoggedOnOnePhoneReachesTheOtherWithItsRevealedNeighbours() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
            let small = DeterministicID.starterGrid("small-joys")
            let board = try phone1.store.addBoard(grid: small, audience: .friends)
            let moment = try phone1.store.logMoment(board: board, position: 24, MomentDraft(title: "Tea on the step", body: "Sun out.", audience: .public))
            // The audience is never wider than the board's (V-A3), on the phone as on the server.
            #expect(try phone1.store.row(.moments, moment)?.text("audience") == "friends")

            let report = try await phone1.sync()
            #expect(report.pushed[.error, default: 0] == 0, "push failures: \(report.failures)")
            #expect(try phone1.store.queue().isEmpty, "the queue empties once the server applied every row")
            try await phone2.sync()

            let seen = try #require(try phone2.store.board(board))
            #expect(seen.squares[24].state == .done)
            #expect(seen.squares[24].momentTitle == "Tea on the step")
            #expect(seen.squares.filter { $0.state == .revealed }.map(\.position) == [17, 23, 25, 31])
            #expect(seen.squares.filter { $0.state == .hidden }.count == 44)
            try await expectPhone(phone1, equalsServerFor: ann, in: world)
            try await expectPhone(phone2, equalsServerFor: ann, in: world)
        }
    }

    @Test func severalEditsBeforeAPushTravelAsOneRowAsItIsAtPushTime() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone = try world.phone("ann-1", of: ann)
            let board = try phone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            let moment = try phone.store.logMoment(board: board, position: 24, MomentDraft(title: "first"))
            try phone.store.editMoment(moment, MomentChange(title: "second"))
            try phone.store.editMoment(moment, MomentChange(title: "third", place: "the park"))
            #expect(try phone.store.queue().filter { $0.table == .moments }.map(\.version) == [3])

            let report = try await phone.sync()
            // The board and its moment; the squares it reveals are the server's to write (R3).
            #expect(report.pushed[.applied, default: 0] == 2, "\(report.pushed)")
            #expect(try await world.scalar("select title || '/' || place from grids.moments where id = \(moment)", as: String.self)
                    == "third/the park")
            #expect(try await world.scalar("select count(*) from private.sync_corrections where row_id = \(moment)", as: Int.self) == 0)
        }
    }

    @Test func aPullPagesThroughEveryRowAndStartsTwoMinutesBeforeItsCursor() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
            // The starter shelf (424 squares) and two 10 x 10 boards: more squares than one page of 500.
            try phone1.store.startShelf()
            for _ in 0..<2 { try phone1.store.addBoard(grid: DeterministicID.starterGrid("hundred-firsts")) }
            try await phone1.sync()
            let report = try await phone2.sync()
            #expect(try phone2.rows(.userSquares).count == 624)
            #expect(report.pulled >= 624 + 8)
            try await expectPhone(phone2, equalsServerFor: ann, in: world)

            // A write that committed late, stamped 90 s before the phone's cursor, is still pulled;
            // one stamped 3 minutes before is outside the overlap (and would have been pulled before).
            let cursor = try await world.scalar("select max(server_updated_at) from grids.user_grids", as: Date.self)
            let boards = try phone1.store.boards().map(\.id)
            try await world.owner.transaction { owner in
                try await owner.simpleQuery("set local session_replication_role = replica")
                try await owner.query("""
                    update grids.user_grids set audience = 'friends', updated_at = now(),
                      server_updated_at = \(cursor)::timestamptz - interval '90 seconds' where id = \(boards[0])
                    """)
                try await owner.query("""
                    update grids.user_grids set audience = 'public', updated_at = now(),
                      server_updated_at = \(cursor)::timestamptz - interval '180 seconds' where id = \(boards[1])
                    """)
            }
            try await phone2.sync()
            #expect(try phone2.store.row(.userGrids, boards[0])?.text("audience") == "friends")
            #expect(try phone2.store.row(.userGrids, boards[1])?.text("audience") == "private")
        }
    }
}
