import Foundation
import GridSync
import Postgres
import Testing

/// The same square logged on two phones while offline (seed, "Sync"; C8, C9, C11).
@Suite(.serialized) struct SameSquareTests {
    @Test func soloTheNewerMomentIsKeptAndTheOtherDeletedWithItsPhotos() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
            let board = try phone1.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            try await phone1.sync()
            try await phone2.sync()
            phone1.isOnline = false
            phone2.isOnline = false
            // The newer one reaches the server first, the older one second: the newer still wins.
            let older = try phone1.store.logMoment(board: board, position: 24, MomentDraft(title: "older"))
            let olderPhoto = try phone1.store.addPhoto(moment: older, bytes: Array("older photo".utf8))
            phone2.advance(30)
            let newer = try phone2.store.logMoment(board: board, position: 24, MomentDraft(title: "newer"))
            for phone in [phone2, phone1] {
                phone.isOnline = true
                try await phone.sync()
            }
            try await phone2.sync()
            for phone in [phone1, phone2] {
                let square = try #require(try phone.store.board(board)?.squares[24])
                #expect(square.momentID == newer && square.momentTitle == "newer", "\(phone.name)")
                #expect(try phone.store.row(.moments, older)?.deleted != false)
                #expect(try phone.store.row(.photos, olderPhoto)?.deleted != false)
                try await expectPhone(phone, equalsServerFor: ann, in: world)
            }
            #expect(try await world.scalar("select merged_into from grids.moments where id = \(older)", as: UUID.self) == newer)
            #expect(try phone1.store.photoFile(olderPhoto) == nil, "the loser's photo file left the phone")
        }
    }

    @Test func groupTheFirstMomentIsKeptAndEachPersonsWordsAndPhotosMoveOntoIt() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann"), ben = try await world.person("ben")
            try await world.befriend(ann, ben)
            let annPhone = try world.phone("ann-1", of: ann), benPhone = try world.phone("ben-1", of: ben)
            let board = try annPhone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            try await annPhone.sync()
            try await world.startGroup(board, owner: ann, members: [ben])
            try await annPhone.sync()
            try await benPhone.sync()

            annPhone.isOnline = false
            benPhone.isOnline = false
            let first = try benPhone.store.logMoment(board: board, position: 24,
                                                    MomentDraft(title: "Picnic", body: "Ben's words.", place: "the hill"))
            annPhone.advance(60)  // later, but second to reach the server: the first one is kept anyway
            let second = try annPhone.store.logMoment(board: board, position: 24, MomentDraft(title: "Our picnic", body: "Ann's words."))
            let annEntry = try #require(try annPhone.rows(.momentEntries).values.first { $0.uuid("moment_id") == second }?.id)
            try annPhone.store.setPartAudience(.momentEntries, annEntry, .group)
            let annPhoto = try annPhone.store.addPhoto(moment: second, bytes: Array("ann's photo".utf8), audience: .group)
            benPhone.isOnline = true
            try await benPhone.sync()
            annPhone.isOnline = true
            try await annPhone.sync()
            try await benPhone.sync()

            for (phone, user) in [(annPhone, ann), (benPhone, ben)] {
                let square = try #require(try phone.store.board(board)?.squares[24])
                #expect(square.momentID == first && square.momentTitle == "Picnic", "\(phone.name): the first moment is kept")
                #expect(try phone.store.row(.moments, second)?.deleted != false)
                try await expectPhone(phone, equalsServerFor: user, in: world)
            }
            // Nobody's part is lost: ann's entry and photo are on the kept moment, on both phones.
            #expect(try annPhone.store.row(.momentEntries, annEntry)?.uuid("moment_id") == first)
            #expect(try benPhone.store.row(.momentEntries, annEntry)?.text("body") == "Ann's words.")
            #expect(try benPhone.store.row(.photos, annPhoto)?.uuid("moment_id") == first)
            #expect(try benPhone.store.photoFile(annPhoto) != nil)
            #expect(try await world.scalar("""
                select count(*) from grids.moments where user_square_id = \(DeterministicID.square(board: board, position: 24)) and not deleted
                """, as: Int.self) == 1)
        }
    }
}
