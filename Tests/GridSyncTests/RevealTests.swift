import Foundation
import GridSync
import Postgres
import Testing

/// Reveals are their own synced fact (R3): "Deleting the moment returns it to revealed;
/// neighbours stay revealed" — whether the moment was synced before it was deleted or
/// never reached the server, on a solo board and on a group board.
@Suite(.serialized) struct RevealTests {
    @Test(arguments: [(group: false, syncFirst: false), (group: false, syncFirst: true), (group: true, syncFirst: false), (group: true, syncFirst: true)])
    func deletingAMomentNeverHidesASquare(group: Bool, syncFirst: Bool) async throws {
        try await SyncWorld.run { world in
            let ann = try await world.person("ann"), ben = try await world.person("ben")
            let phone = try world.phone("ann-1", of: ann), other = try world.phone("ann-2", of: ann)
            let board = try phone.store.addBoard(grid: DeterministicID.starterGrid("small-joys"))
            if group {
                try await world.befriend(ann, ben)
                try await phone.sync()
                try await world.startGroup(board, owner: ann, members: [ben])
                try await phone.sync()
            }
            // Small joys is 7 x 7: 24 is the centre, 17, 23, 25 and 31 its neighbours.
            let moment = try phone.store.logMoment(board: board, position: 24, MomentDraft(title: "Tea"))
            if syncFirst { try await phone.sync() }   // online: the moment reaches the server first
            try phone.store.deleteMoment(moment)      // else offline: it never does
            func states(_ board: Board?) -> [Int: Square.State] {
                Dictionary(uniqueKeysWithValues: (board?.squares ?? []).map { ($0.position, $0.state) })
            }
            let here = states(try phone.store.board(board))
            #expect([17, 23, 24, 25, 31].map { here[$0] } == Array(repeating: .revealed, count: 5), "on the phone: \(here.filter { $0.value != .hidden })")
            let report = try await phone.sync()
            #expect(report.failures.isEmpty)
            let stored = try await world.scalar("""
                select string_agg(position::text || '=' || state, ',' order by position) from grids.user_square_states
                where user_grid_id = \(board) and position in (17, 23, 24, 25, 31)
                """, as: String.self)
            #expect(stored == "17=revealed,23=revealed,24=revealed,25=revealed,31=revealed", "on the server: \(stored)")
            try await other.sync()
            let there = states(try other.store.board(board))
            #expect([17, 23, 25, 31].allSatisfy { there[$0] == .revealed }, "on another phone: \(there.filter { $0.value != .hidden })")
            try await expectPhone(phone, equalsServerFor: ann, in: world)
        }
    }
}
