import Foundation
import GridSync
import Postgres
import Testing

/// Last-write-wins, tombstones and the clock guard, as phones see them (C1–C4, C15, P1–P3).
@Suite(.serialized) struct ConflictTests {
    /// Two phones of one person with a synced board and a moment on square 24.
    private func twoPhonesWithAMoment(_ world: SyncWorld) async throws -> (UUID, Phone, Phone, UUID, UUID) {
        let ann = try await world.person("ann")
        let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
        let board = try phone1.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
        let moment = try phone1.store.logMoment(board: board, position: 24, MomentDraft(title: "original"))
        try await phone1.sync()
        try await phone2.sync()
        return (ann, phone1, phone2, board, moment)
    }

    @Test func theNewerEditWinsOnEveryPhoneWhicheverPushesFirst() async throws {
        try await SyncWorld.run { world in
            let (ann, phone1, phone2, _, moment) = try await twoPhonesWithAMoment(world)
            phone1.isOnline = false
            phone2.isOnline = false
            try phone2.store.editMoment(moment, MomentChange(title: "older edit"))
            phone1.advance(5)
            try phone1.store.editMoment(moment, MomentChange(title: "newer edit"))
            // The newer edit reaches the server first; the older one arrives after and is ignored (C1).
            phone1.isOnline = true
            try await phone1.sync()
            phone2.isOnline = true
            let report = try await phone2.sync()
            #expect(report.pushed[.ignored] == 1)
            for phone in [phone1, phone2] {
                try await phone.sync()
                #expect(try phone.store.row(.moments, moment)?.text("title") == "newer edit", "\(phone.name)")
                try await expectPhone(phone, equalsServerFor: ann, in: world)
            }
        }
    }

    @Test func atTheSameInstantTheLargerDeviceIDWins() async throws {
        try await SyncWorld.run { world in
            let (ann, phone1, phone2, _, moment) = try await twoPhonesWithAMoment(world)
            // Both phones stamp their edits at the same instant, to the microsecond.
            let instant = Timestamp.now() + 1
            let (larger, smaller) = phone1.store.deviceID.lowercased > phone2.store.deviceID.lowercased ? (phone1, phone2) : (phone2, phone1)
            try setTitle(moment, "from the larger device", at: instant, on: larger)
            try setTitle(moment, "from the smaller device", at: instant, on: smaller)
            try await larger.sync()
            try await smaller.sync()
            try await larger.sync()
            for phone in [phone1, phone2] {
                #expect(try phone.store.row(.moments, moment)?.text("title") == "from the larger device", "\(phone.name)")
                try await expectPhone(phone, equalsServerFor: ann, in: world)
            }
        }
    }

    /// An edit stamped exactly `instant`: the phone's clock held still for it.
    private func setTitle(_ moment: UUID, _ title: String, at instant: Timestamp, on phone: Phone) throws {
        phone.store.clock.stoppedAt = instant
        defer { phone.store.clock.stoppedAt = nil }
        try phone.store.editMoment(moment, MomentChange(title: title))
        #expect(try phone.store.row(.moments, moment)?.timestamp("updated_at") == instant)
    }

    @Test func aDeleteWinsOverANewerEditAndStaysDeleted() async throws {
        try await SyncWorld.run { world in
            let (ann, phone1, phone2, board, moment) = try await twoPhonesWithAMoment(world)
            phone1.isOnline = false
            try phone1.store.deleteMoment(moment)
            phone2.advance(60)
            try phone2.store.editMoment(moment, MomentChange(title: "edited after the delete"))
            try await phone2.sync()
            phone1.isOnline = true
            try await phone1.sync()
            let report = try await phone2.sync()
            #expect(report.pulled > 0)
            for phone in [phone1, phone2] {
                #expect(try phone.store.row(.moments, moment)?.deleted == true, "\(phone.name) still has the moment")
                #expect(try phone.store.board(board)?.squares[24].state == .revealed, "R5: the square is revealed again")
                try await expectPhone(phone, equalsServerFor: ann, in: world)
            }
            // A later write to the tombstone is ignored, and the phone takes the answer.
            phone2.advance(60)
            #expect(throws: GridStoreError.self) { try phone2.store.editMoment(moment, MomentChange(title: "again")) }
            #expect(try await world.scalar("select deleted from grids.moments where id = \(moment)", as: Bool.self))
        }
    }

    @Test func aPullNeverOverwritesARowWithQueuedChangesAndThePushAnswerDecides() async throws {
        try await SyncWorld.run { world in
            let (ann, phone1, phone2, _, moment) = try await twoPhonesWithAMoment(world)
            phone2.isOnline = false
            try phone2.store.editMoment(moment, MomentChange(place: "the kitchen"))  // older
            phone1.advance(30)
            try phone1.store.editMoment(moment, MomentChange(place: "the garden"))   // newer
            try await phone1.sync()
            // Pull alone (no push): phone 2 keeps its queued copy (P1).
            var report = SyncReport()
            try await SyncEngine(server: world.server(ann)).pull(phone2.store, into: &report)
            #expect(try phone2.store.row(.moments, moment)?.text("place") == "the kitchen")
            #expect(try phone2.store.queue().map(\.table) == [.moments])
            // The push is ignored (older K); its answer is the stored row, which replaces the phone's.
            phone2.isOnline = true
            report = try await phone2.sync()
            #expect(report.pushed[.ignored] == 1)
            #expect(try phone2.store.row(.moments, moment)?.text("place") == "the garden")
            #expect(try phone2.store.queue().isEmpty)
            try await expectPhone(phone2, equalsServerFor: ann, in: world)
        }
    }

    @Test func aClockFarAheadIsClampedToTheServersSoItCannotWinForever() async throws {
        try await SyncWorld.run { world in
            let (ann, phone1, phone2, _, moment) = try await twoPhonesWithAMoment(world)
            phone1.simulated.clockSkew = 24 * 3600  // a day ahead
            try phone1.store.editMoment(moment, MomentChange(title: "from the future"))
            let report = try await phone1.sync()
            #expect(report.pushed[.corrected] == 1, "C15 clamps and says so: \(report.pushed)")
            let stored = try #require(try phone1.store.row(.moments, moment)?.timestamp("updated_at"))
            #expect(abs(stored - Timestamp.now()) < 60, "the phone took the clamped updated_at from the answer")
            // A phone with a true clock edits a little later and wins.
            phone2.advance(5)
            try await phone2.sync()
            try phone2.store.editMoment(moment, MomentChange(title: "from now"))
            try await phone2.sync()
            try await phone1.sync()
            #expect(try phone1.store.row(.moments, moment)?.text("title") == "from now")
            try await expectPhone(phone1, equalsServerFor: ann, in: world)
        }
    }

    @Test func revealsMergeAsTheEarliestAndAnExcessFreebieIsDroppedEverywhere() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
            let board = try phone1.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))  // 7 x 7: one freebie
            try await phone1.sync()
            try await phone2.sync()
            phone1.isOnline = false
            phone2.isOnline = false
            // Offline, each phone spends the board's only freebie on a different square.
            try phone2.store.useFreebie(board: board, position: 24)
            phone1.advance(10)
            try phone1.store.logMoment(board: board, position: 24, MomentDraft(title: "moment"))
            try phone1.store.useFreebie(board: board, position: 17)
            #expect(throws: GridStoreError.self) { try phone1.store.useFreebie(board: board, position: 23) }
            phone2.isOnline = true
            try await phone2.sync()
            phone1.isOnline = true
            let report = try await phone1.sync()
            #expect(report.pushed[.corrected, default: 0] >= 1, "R7 drops the second freebie: \(report.pushed)")
            try await phone2.sync()
            let freebieAt = try #require(try phone2.store.row(.userSquares, DeterministicID.square(board: board, position: 24))?
                .timestamp("freebie_at"))
            for phone in [phone1, phone2] {
                let squares = try #require(try phone.store.board(board)).squares
                #expect(squares.filter(\.freebie).map(\.position) == [24], "\(phone.name)")
                // Square 17 was revealed by both phones, phone 2's freebie first: the earlier reveal is kept (C4).
                #expect(squares[17].state == .revealed)
                #expect(try phone.store.row(.userSquares, DeterministicID.square(board: board, position: 17))?
                    .timestamp("revealed_at") == freebieAt)
                try await expectPhone(phone, equalsServerFor: ann, in: world)
            }
            #expect(try await world.scalar("select count(*) from private.board_violations(\(board))", as: Int.self) == 0)
        }
    }
}
