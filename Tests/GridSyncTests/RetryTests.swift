import Foundation
import GridSync
import Postgres
import Testing

/// The retry schedule of queue entries (spec §6.2): 1 s, 10 s, 1 min, 10 min,
/// then hourly; "couldn't sync" after seven days; Try again.
@Suite(.serialized) struct RetryTests {
    @Test func aGridThatWontSaveIsRetriedOnItsScheduleWithoutHoldingUpTheRest() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone = try world.phone("ann-1", of: ann)
            // Time passes for the phone only when the test says so, however slowly the machine runs.
            phone.store.clock.stoppedAt = Timestamp.now()
            // The phone's list of themes is out of date: the server retired "calm".
            try await world.owner.query("update grids.themes set active = false where slug = 'calm'")
            let grid = try phone.store.makeGrid(GridDraft(title: "Quiet things", color: "sage", theme: "calm", size: 7,
                                                          prompts: (1...49).map { "Sit still for \($0) breaths" }))
            let madeBoard = try phone.store.addBoard(grid: grid)
            let starterBoard = try phone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            let moment = try phone.store.logMoment(board: starterBoard, position: 24, MomentDraft(title: "Still synced"))

            var report = try await phone.sync()
            #expect(Set(report.failures) == ["theme_invalid", "grid_missing"], "the grid fails, and the board that needs it")
            #expect(try await world.scalar("select count(*) from grids.moments where id = \(moment)", as: Int.self) == 1,
                    "the rest went through")
            var waiting = try phone.store.queue()
            #expect(Set(waiting.map(\.rowID)) == [grid, madeBoard])
            #expect(waiting.allSatisfy { $0.attempts == 1 && $0.lastError != nil })

            // Not due yet: nothing is pushed.
            report = try await phone.sync()
            #expect(report.pushedCount == 0)

            // Each further failure waits longer: 10 s, 1 min, 10 min, then every hour.
            for (wait, expectedNext) in [(1.0, 10.0), (10, 60), (60, 600), (600, 3600), (3600, 3600)] {
                phone.advance(wait)
                report = try await phone.sync()
                #expect(report.pushed[.error] == 2, "after waiting \(wait) s")
                waiting = try phone.store.queue()
                for entry in waiting {
                    guard case .retrying(_, let next) = entry.state else {
                        Issue.record("\(entry.table.rawValue) should be retrying, is \(entry.state)")
                        continue
                    }
                    #expect(abs((next - phone.store.now()) - expectedNext) < 0.001, "the next try after \(wait) s")
                }
            }
            #expect(waiting.first { $0.rowID == grid }?.lastError == "theme_invalid")

            // Seven days after the first failure the change is marked "couldn't sync" and left alone.
            phone.advance(7 * 24 * 3600)
            try await phone.sync()
            waiting = try phone.store.queue()
            #expect(waiting.allSatisfy { $0.state == .couldntSync })
            phone.advance(3600)
            #expect(try await phone.sync().pushedCount == 0)

            // Try again, once the server takes the theme back: everything goes through.
            try await world.owner.query("update grids.themes set active = true where slug = 'calm'")
            #expect(try phone.store.retryCouldntSync() == 2)
            report = try await phone.sync()
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(try phone.store.queue().isEmpty)
            #expect(try await world.scalar("select count(*) from grids.user_grids where id = \(madeBoard) and grid_id = \(grid)",
                                           as: Int.self) == 1)
        }
    }

    @Test func aLostConnectionMarksTheRowsInFlightToRetry() async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann")
            let phone = try world.phone("ann-1", of: ann)
            phone.store.clock.stoppedAt = Timestamp.now()
            let board = try phone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            // The real server, reached over a network that drops the moment rows are pushed.
            let network = NetworkThatDrops(server: world.server(ann), when: .push)
            await #expect(throws: GridServerError.self) { try await SyncEngine(server: network).sync(phone.store) }
            let waiting = try #require(try phone.store.queue().first)
            #expect(waiting.rowID == board && waiting.lastError == "transport" && waiting.attempts == 1)
            // An offline phone does not try at all.
            phone.isOnline = false
            await #expect(throws: GridServerError.transport("the phone is offline")) { try await phone.sync() }
            phone.isOnline = true
            phone.advance(1)
            try await phone.sync()
            #expect(try phone.store.queue().isEmpty)
            #expect(try await world.scalar("select count(*) from grids.user_grids where id = \(board)", as: Int.self) == 1)
        }
    }
}

/// The real server behind a network that drops at one kind of call: the call
/// never reaches the server, as when the phone loses its signal.
struct NetworkThatDrops: GridServer {
    enum Call: Sendable { case push, pull }
    let server: PostgresGridServer
    let when: Call

    var user: UUID { server.user }

    private func dropped() -> GridServerError { .transport("the network dropped") }

    func saveGrid(_ grid: JSON) async throws -> JSON {
        if when == .push { throw dropped() }
        return try await server.saveGrid(grid)
    }

    func push(_ table: SyncedTable, batches: [[JSON]]) async throws -> [[PushOutcome]] {
        if when == .push { throw dropped() }
        return try await server.push(table, batches: batches)
    }

    func pull(_ table: String, since: Timestamp?, afterID: UUID?) async throws -> PullPage {
        if when == .pull { throw dropped() }
        return try await server.pull(table, since: since, afterID: afterID)
    }

    func pullGroup(_ group: UUID, _ table: SyncedTable, afterID: UUID?) async throws -> PullPage {
        if when == .pull { throw dropped() }
        return try await server.pullGroup(group, table, afterID: afterID)
    }

    func myGroups() async throws -> [UUID] { try await server.myGroups() }

    func uploadPhoto(_ photo: UUID, path: String, bytes: [UInt8]) async throws -> JSON? {
        try await server.uploadPhoto(photo, path: path, bytes: bytes)
    }

    func downloadPhoto(path: String) async throws -> [UInt8]? { try await server.downloadPhoto(path: path) }
}
