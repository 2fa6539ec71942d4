import Foundation
import GridSync
import Postgres
import Testing

/// Starter ids, photo files, sign-out, and data made before any account (spec §6.6, §6.8).
@Suite(.serialized) struct AccountTests {
    @Test func twoPhonesThatStartTheShelfBeforeSyncingMakeTheSameRows() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
            let boards1 = try phone1.store.startShelf()
            phone2.advance(5)
            let boards2 = try phone2.store.startShelf()
            #expect(boards1.count == 6 && Set(boards1) == Set(boards2))
            #expect(boards1.contains(DeterministicID.starterShelfBoard(user: ann, key: "small-joys")))
            try phone1.store.logMoment(board: boards1[0], position: 24, MomentDraft(title: "from phone 1"))
            try phone2.store.logMoment(board: boards2[1], position: 24, MomentDraft(title: "from phone 2"))
            try await phone1.sync()
            let report = try await phone2.sync()
            #expect(report.failures.isEmpty)
            try await phone1.sync()
            #expect(try await world.scalar("select count(*) from grids.user_grids where user_id = \(ann)", as: Int.self) == 6)
            #expect(try await world.scalar("select count(*) from grids.user_squares where user_id = \(ann)", as: Int.self) == 424)
            for phone in [phone1, phone2] {
                #expect(try phone.store.boards().count == 6)
                try await expectPhone(phone, equalsServerFor: ann, in: world)
            }
            // Started once: a later add of a starter grid is a new board with a new id.
            let again = try phone1.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            #expect(!boards1.contains(again))
            #expect(try phone1.store.startShelf().isEmpty)
        }
    }

    /// Starting a shelf is insert-if-absent: a second phone that starts it before its first
    /// sync never resets a board the first phone shared (nor narrows its moments for a friend),
    /// whether it pushes before or after the first phone's change, and however new its rows are.
    @Test(arguments: [false, true])
    func aSecondPhonesStarterShelfNeverOverwritesTheBoardsOnTheServer(secondStartsFirst: Bool) async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann"), bob = try await world.person("bob")
            try await world.befriend(ann, bob)
            let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
            let board = DeterministicID.starterShelfBoard(user: ann, key: "small-joys")
            try phone1.store.startShelf()
            if secondStartsFirst { try phone2.store.startShelf() }
            try phone1.store.setAudience(board: board, .friends)
            let moment = try phone1.store.logMoment(board: board, position: 24, MomentDraft(title: "Tea", audience: .friends))
            try await phone1.sync()
            // The second phone's rows are an hour newer than anything the first one wrote.
            phone2.advance(3600)
            if !secondStartsFirst { try phone2.store.startShelf() }
            let report = try await phone2.sync()
            #expect(report.failures.isEmpty)
            #expect(try await world.scalar("select audience::text from grids.user_grids where id = \(board)", as: String.self) == "friends",
                    "the server's board keeps the audience the first phone chose")
            let seen = try await world.rpc(bob, "select grids.person_moment(\(moment))::text")
            #expect(seen["title"].string == "Tea", "bob still sees ann's moment: \(seen)")
            #expect(try phone2.store.board(board)?.audience == .friends, "the second phone takes the server's board")
            try await phone1.sync()
            for phone in [phone1, phone2] { try await expectPhone(phone, equalsServerFor: ann, in: world) }
            // A deliberate change on the second phone still goes through.
            try phone2.store.setAudience(board: board, .private)
            try await phone2.sync()
            #expect(try await world.scalar("select audience::text from grids.user_grids where id = \(board)", as: String.self) == "private")
        }
    }

    @Test func photoFilesTravelThroughStorageAndLiveRelativeToTheDocumentsFolder() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone1 = try world.phone("ann-1", of: ann), phone2 = try world.phone("ann-2", of: ann)
            let board = try phone1.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            let moment = try phone1.store.logMoment(board: board, position: 24, MomentDraft(title: "Sunset"))
            let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let photo = try phone1.store.addPhoto(moment: moment, bytes: bytes, width: 640, height: 480)
            #expect(try phone1.store.row(.photos, photo)?.text("local_path") == "photos/\(photo.lowercased).webp")

            let report = try await phone1.sync()
            #expect(report.photosUploaded == 1)
            let path = "\(ann.lowercased)/\(photo.lowercased).webp"
            #expect(try await world.scalar("select length(content) from storage.objects where bucket_id = 'photos' and name = \(path)",
                                           as: Int.self) == 4096)
            #expect(try phone1.store.row(.photos, photo)?.timestamp("uploaded_at") != nil, "the server marked it uploaded")

            let pulled = try await phone2.sync()
            #expect(pulled.photosDownloaded == 1)
            let file = try #require(try phone2.store.photoFile(photo))
            #expect(file.path == phone2.store.folder.appendingPathComponent("photos/\(photo.lowercased).webp").path)
            #expect([UInt8](try Data(contentsOf: file)) == bytes)
            try await expectPhone(phone2, equalsServerFor: ann, in: world)

            // Deleted on one phone: the row is a tombstone everywhere and the file leaves the other phone (P2).
            try phone1.store.deletePart(.photos, photo)
            try await phone1.sync()
            try await phone2.sync()
            #expect(try phone2.store.row(.photos, photo)?.deleted == true)
            #expect(try phone2.store.photoFile(photo) == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func signingOutEmptiesThePhoneAndSigningInAsSomeoneElseStartsEmpty() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann"), ben = try await world.person("ben")
            let phone = try world.phone("shared-phone", of: ann)
            let board = try phone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            let moment = try phone.store.logMoment(board: board, position: 24, MomentDraft(title: "Pushed on the way out"))
            try phone.store.addPhoto(moment: moment, bytes: Array("bytes".utf8))
            #expect(throws: GridStoreError.self) { try phone.signIn(ben) }

            // Sign-out tries one last push, then empties the phone.
            let unsynced = try await phone.simulated.signOut(with: world.server(ann))
            #expect(unsynced.isEmpty)
            #expect(try await world.scalar("select count(*) from grids.moments where id = \(moment)", as: Int.self) == 1)
            #expect(phone.store.account == .signedOut)
            for table in SyncedTable.allCases where table != .grids {
                #expect(try phone.store.rows(table).isEmpty, "\(table.rawValue) emptied")
            }
            #expect(try phone.store.rows(.grids).allSatisfy { $0.text("kind") == "starter" }, "only the bundled templates stay")
            #expect(try FileManager.default.contentsOfDirectory(atPath: phone.store.folder.appendingPathComponent("photos").path).isEmpty)
            #expect(throws: GridStoreError.self) { try phone.store.addBoard(grid: DeterministicID.starterGrid("small-joys")) }

            try phone.signIn(ben)
            try await phone.sync()
            #expect(try phone.store.boards().isEmpty, "ben's phone holds nothing of ann's")
            try await expectPhone(phone, equalsServerFor: ben, in: world)

            // Offline, a sign-out warns about what could not be pushed.
            try phone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            phone.isOnline = false
            let left = try await phone.simulated.signOut(with: world.server(ben))
            #expect(left.map(\.table) == [.userGrids])
        }
    }

    @Test func dataMadeBeforeAnyAccountIsAdoptedByTheFirstAccountThatSignsIn() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let other = try world.phone("ann-other", of: ann)
            try other.store.startShelf()
            try await other.sync()

            // "Continue on this phone only": a shelf, a moment, a photo and interests, with no account.
            let phone = try world.phone("new-phone", of: nil)
            #expect(phone.store.account == .neverSignedIn)
            let boards = try phone.store.startShelf()
            let board = try #require(try phone.store.boards().first { $0.id == boards[0] })
            let moment = try phone.store.logMoment(board: board.id, position: board.squares.first { $0.state == .revealed }!.position,
                                                   MomentDraft(title: "Before the account"))
            let photo = try phone.store.addPhoto(moment: moment, bytes: Array("v0 photo".utf8))
            try phone.store.pickInterests(["cooking", "nature"])
            #expect(try phone.store.row(.moments, moment)?.uuid("user_id") == nil)

            try phone.signIn(ann)
            // Stamped with the account, and the starter shelf re-keyed to the ids ann's other phone used.
            #expect(Set(try phone.store.boards().map(\.id)) == Set(try other.store.boards().map(\.id)))
            #expect(try phone.store.row(.moments, moment)?.uuid("user_id") == ann)
            #expect(try phone.store.row(.photos, photo)?.text("storage_path") == "\(ann.lowercased)/\(photo.lowercased).webp")
            #expect(try phone.store.row(.profileInterests, DeterministicID.interest(user: ann, slug: "cooking")) != nil)

            let report = try await phone.sync()
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(try await world.scalar("select count(*) from grids.user_grids where user_id = \(ann)", as: Int.self) == 6)
            #expect(try await world.scalar("select user_id from grids.moments where id = \(moment)", as: UUID.self) == ann)
            #expect(try await world.scalar("select count(*) from grids.profile_interests where user_id = \(ann)", as: Int.self) == 2)
            #expect(report.photosUploaded == 1)
            try await other.sync()
            for device in [phone, other] { try await expectPhone(device, equalsServerFor: ann, in: world) }
        }
    }
}
