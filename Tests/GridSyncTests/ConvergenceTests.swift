import Foundation
import GridSync
import Postgres
import Testing

/// The seeds a run plays: `GRIDSYNC_SEED=n` replays one, `GRIDSYNC_SEEDS=k` plays 1…k;
/// by default (and in CI) the first six. To see how one row goes wrong in a replay,
/// `GRIDSYNC_TRACE=table:id` prints every step and that row around every sync.
enum ConvergenceSeeds {
    static var traced: (SyncedTable, UUID)? {
        guard let text = ProcessInfo.processInfo.environment["GRIDSYNC_TRACE"],
              let colon = text.firstIndex(of: ":"),
              let table = SyncedTable(rawValue: String(text[..<colon])),
              let id = UUID(uuidString: String(text[text.index(after: colon)...])) else { return nil }
        return (table, id)
    }

    static var list: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["GRIDSYNC_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["GRIDSYNC_SEEDS"].flatMap(UInt64.init) ?? 6
        return Array(1...max(1, count))
    }
}

/// Three friends, each with two to four phones, one group grid among them and
/// their own shelves: random edits, deletes, photos, freebies, offline spells,
/// clock skews and a board turned into a group halfway. Once every phone is
/// back online and has synced, every phone must equal the server, and the
/// server what the rules say: no row lost, no tombstone back, one live moment
/// per square, and boards without violations.
@Suite(.serialized) struct ConvergenceTests {
    @Test(arguments: ConvergenceSeeds.list)
    func everyPhoneEndsEqualToTheServerAndTheServerEqualToTheRules(seed: UInt64) async throws {
        try await SyncWorld.run { world in
            let run = ConvergenceRun(seed: seed, world: world)
            try await run.setUp()
            try await run.play(steps: 160)
            try await run.settle()
            try await run.verify()
        }
    }
}

/// One seeded run, and the ledger its checks read.
final class ConvergenceRun {
    let seed: UInt64
    let world: SyncWorld
    var random: SeededRandom
    var people: [UUID] = []
    var phones: [Phone] = []
    /// Ids of moments, entries and photos some phone made, and those a phone deleted.
    var made: [SyncedTable: Set<UUID>] = [:]
    var deletedByPhone: Set<UUID> = []
    /// Every tombstone seen on the server so far: none may ever come back.
    var tombstones: Set<UUID> = []
    /// The last steps, shown with a failure.
    var steps: [String] = []

    init(seed: UInt64, world: SyncWorld) {
        self.seed = seed
        self.world = world
        random = SeededRandom(seed: seed)
    }

    var context: String { "seed \(seed) (replay: GRIDSYNC_SEED=\(seed) swift test --filter ConvergenceTests): " }

    func fail(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record(Comment(rawValue: context + message + "\nlast steps:\n  " + steps.suffix(12).joined(separator: "\n  ")),
                     sourceLocation: sourceLocation)
    }

    func note(_ step: String) {
        if ConvergenceSeeds.traced != nil { print("step:", step) }
        steps.append(step)
    }

    // MARK: setting up

    func setUp() async throws {
        for name in ["ann", "ben", "cat"] { people.append(try await world.person(name, id: random.uuid())) }
        for (index, a) in people.enumerated() { for b in people[(index + 1)...] { try await world.befriend(a, b) } }
        for (index, person) in people.enumerated() {
            for device in 0..<Int.random(in: 2...4, using: &random) {
                // Skews a minute or more apart, so which phone's stamp is later never hangs on
                // how fast this machine runs the steps; 12 minutes ahead is clamped (C15).
                let skew = random.pick([-120.0, -60, 0, 0, 60, 120, 300, 720])!
                let ids = SeededIDs(seed: seed &* 1_000_003 &+ UInt64(phones.count))
                phones.append(try world.phone("\(["ann", "ben", "cat"][index])-\(device + 1)", of: person, skew: skew, ids: ids.next))
            }
        }
        // Each person starts the shelf on one or two phones before any sync: the same rows.
        for person in people {
            let own = phones.filter { $0.user == person }
            try own[0].store.startShelf()
            if random.chance(0.5) { try own[1].store.startShelf() }
        }
        // ann's group grid, with ben and cat in it.
        let ann = phones.first { $0.user == people[0] }!
        let board = try ann.store.addBoard(grid: randomStarter())
        try await ann.sync()
        try await world.startGroup(board, owner: people[0], members: [people[1], people[2]])
        for phone in phones { try await sync(phone) }
    }

    func randomStarter() -> UUID {
        DeterministicID.starterGrid(random.pick(["small-joys", "close-to-home", "out-the-door", "kitchen-table",
                                                 "through-the-year", "hundred-firsts"])!)
    }

    // MARK: playing

    enum Action: CaseIterable {
        case log, edit, deleteMoment, freebie, entry, partAudience, photo, deletePhoto, offline, online, sync, time,
             audience, addBoard
    }

    func play(steps count: Int) async throws {
        let convertAt = count / 2
        for step in 0..<count {
            if step == convertAt { try await convertABoard() }
            let phone = random.pick(phones)!
            let action = random.weighted([
                (Action.log, 14), (.edit, 8), (.deleteMoment, 3), (.freebie, 2), (.entry, 6), (.partAudience, 3),
                (.photo, 4), (.deletePhoto, 1), (.offline, 4), (.online, 5), (.sync, 12), (.time, 3), (.audience, 2),
                (.addBoard, 1),
            ])
            do {
                try await perform(action, on: phone)
            } catch let refusal as GridStoreError {
                // The app refuses what the rules forbid (a board with no revealed square, a used freebie).
                note("\(phone.name) \(action): refused, \(refusal.problem)")
            }
        }
    }

    private func perform(_ action: Action, on phone: Phone) async throws {
        let store = phone.store
        let me = phone.user!
        switch action {
        case .log:
            guard let board = random.pick(try store.boards()),
                  let square = random.pick(board.squares.filter { $0.state == .revealed }) else { return }
            let draft = MomentDraft(title: words(2), body: random.chance(0.6) ? words(6) : "", place: random.chance(0.3) ? words(1) : "",
                                    audience: random.pick(Audience.allCases)!)
            made[.moments, default: []].insert(try store.logMoment(board: board.id, position: square.position, draft))
            note("\(phone.name) logs on \(board.id.lowercased.prefix(8)) #\(square.position)")
        case .edit:
            guard let moment = random.pick(try phone.live(.moments)) else { return }
            try store.editMoment(moment.id, MomentChange(title: random.chance(0.7) ? words(2) : nil, body: random.chance(0.4) ? words(5) : nil,
                                                         place: random.chance(0.3) ? words(1) : nil,
                                                         audience: random.chance(0.3) ? random.pick(Audience.allCases) : nil))
            note("\(phone.name) edits \(moment.id.lowercased.prefix(8))")
        case .deleteMoment:
            guard let moment = random.pick(try phone.live(.moments)) else { return }
            // The person's own parts of it go with it (R14, C10).
            let parts = try store.rows(.momentEntries, where: "moment_id = ? and author_id = ? and deleted = 0", [moment.id.lowercased, me.lowercased])
                + store.rows(.photos, where: "moment_id = ? and user_id = ? and deleted = 0", [moment.id.lowercased, me.lowercased])
            try store.deleteMoment(moment.id)
            deletedByPhone.insert(moment.id)
            deletedByPhone.formUnion(parts.map(\.id))
            note("\(phone.name) deletes moment \(moment.id.lowercased.prefix(8))")
        case .freebie:
            guard let board = random.pick(try store.boards()),
                  let square = random.pick(board.squares.filter { $0.state == .revealed }) else { return }
            try store.useFreebie(board: board.id, position: square.position)
            note("\(phone.name) freebie on \(board.id.lowercased.prefix(8)) #\(square.position)")
        case .entry:
            guard let moment = random.pick(try phone.live(.moments).filter { $0.groupID != nil }) else { return }
            made[.momentEntries, default: []].insert(
                try store.writeEntry(moment: moment.id, body: words(4), audience: random.pick(PartAudience.allCases)))
            note("\(phone.name) writes on \(moment.id.lowercased.prefix(8))")
        case .partAudience:
            let mine = try phone.live(.momentEntries).filter { $0.uuid("author_id") == me }.map { (SyncedTable.momentEntries, $0.id) }
                + phone.live(.photos).filter { $0.uuid("user_id") == me && $0.groupID != nil }.map { (SyncedTable.photos, $0.id) }
            guard let (table, id) = random.pick(mine) else { return }
            try store.setPartAudience(table, id, random.pick(PartAudience.allCases)!)
            note("\(phone.name) changes who sees \(table.rawValue) \(id.lowercased.prefix(8))")
        case .photo:
            let moments = try phone.live(.moments).filter { $0.groupID != nil || $0.uuid("user_id") == me }
            guard let moment = random.pick(moments) else { return }
            let mine = try store.rows(.photos, where: "moment_id = ? and user_id = ? and deleted = 0", [moment.id.lowercased, me.lowercased])
            guard mine.count < 2 else { return }
            let bytes = (0..<Int.random(in: 16...256, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            made[.photos, default: []].insert(try store.addPhoto(moment: moment.id, bytes: bytes, audience: random.pick(PartAudience.allCases)))
            note("\(phone.name) adds a photo to \(moment.id.lowercased.prefix(8))")
        case .deletePhoto:
            guard let photo = random.pick(try phone.live(.photos).filter { $0.uuid("user_id") == me }) else { return }
            try store.deletePart(.photos, photo.id)
            deletedByPhone.insert(photo.id)
            note("\(phone.name) deletes photo \(photo.id.lowercased.prefix(8))")
        case .offline:
            phone.isOnline = false
            note("\(phone.name) goes offline")
        case .online:
            phone.isOnline = true
            note("\(phone.name) comes online")
        case .sync:
            guard phone.isOnline else { return }
            try await sync(phone)
        case .time:
            let seconds = Double(Int.random(in: 1...20, using: &random))
            for phone in phones { phone.advance(seconds) }
            note("\(seconds) s pass")
        case .audience:
            guard let board = random.pick(try store.boards().filter { $0.groupID == nil }) else { return }
            try store.setAudience(board: board.id, random.pick(Audience.allCases)!, bringMoments: random.chance(0.5))
            note("\(phone.name) sets the audience of \(board.id.lowercased.prefix(8))")
        case .addBoard:
            try store.addBoard(grid: randomStarter(), audience: random.pick(Audience.allCases)!)
            note("\(phone.name) adds a board")
        }
    }

    /// Halfway: ann, online, makes one of her boards with moments a group with ben,
    /// while her other phones may hold queued edits of it.
    private func convertABoard() async throws {
        guard let phone = phones.first(where: { $0.user == people[0] && $0.isOnline }) else { return }
        try await sync(phone)
        var candidates: [UUID] = []
        for board in try phone.store.boards() where board.groupID == nil && board.squares.contains(where: { $0.momentID != nil }) {
            if try await world.scalar("select count(*) from grids.user_grids where id = \(board.id) and not deleted", as: Int.self) == 1 {
                candidates.append(board.id)
            }
        }
        guard let board = random.pick(candidates) else { return }
        try await world.startGroup(board, owner: people[0], members: [people[1]])
        note("ann makes \(board.lowercased.prefix(8)) a group with ben")
    }

    /// Syncs a phone; answers how many changes it sent (rows pushed, files uploaded).
    @discardableResult
    private func sync(_ phone: Phone) async throws -> Int {
        if let (table, id) = ConvergenceSeeds.traced {
            print("trace: before \(phone.name) syncs, the phone has", try phone.store.row(table, id)?.syncedJSON.text ?? "nothing",
                  try phone.store.queue().contains { $0.rowID == id } ? "(queued)" : "")
        }
        let report = try await phone.sync()
        if let (table, id) = ConvergenceSeeds.traced {
            print("trace: after, the phone has", try phone.store.row(table, id)?.syncedJSON.text ?? "nothing")
            print("trace: the server has", try await world.owner.query(PostgresQuery(unsafeSQL: """
                select coalesce((select to_jsonb(t)::text from grids.\(table.rawValue) t where id = $1), 'nothing')
                """, binds: [id])).scalar(String.self))
        }
        if !report.failures.isEmpty { fail("\(phone.name)'s sync had failures \(report.failures)") }
        note("\(phone.name) syncs: pushed \(report.pushedCount), pulled \(report.pulled)")
        try await observeTombstones()
        return report.pushedCount + report.photosUploaded
    }

    /// Notes every tombstone on the server, and checks none seen before came back.
    private func observeTombstones() async throws {
        let now = try await world.owner.query("""
            select id from grids.moments where deleted union all select id from grids.moment_entries where deleted
            union all select id from grids.photos where deleted union all select id from grids.user_grids where deleted
            """).decode(UUID.self)
        let back = tombstones.subtracting(now)
        if !back.isEmpty { fail("tombstones came back to life: \(back.map(\.lowercased))") }
        tombstones.formUnion(now)
    }

    private func words(_ count: Int) -> String {
        let bank = ["tea", "kite", "rain", "moss", "bread", "river", "lamp", "fox", "snow", "plum", "chalk", "owl", "sail", "fern"]
        return (0..<count).map { _ in random.pick(bank)! }.joined(separator: " ")
    }

    // MARK: settling and checking

    /// Everyone back online, syncing in turn until every queue is empty.
    /// Everyone back online, syncing in turn until a whole round changes nothing on
    /// the server (then every phone has pulled every change).
    func settle() async throws {
        for phone in phones { phone.isOnline = true }
        for _ in 1...8 {
            var changes = 0
            for phone in phones { changes += try await sync(phone) }
            // A pull can queue changes of its own (C9 moves, P4 regrouping): those go next round.
            if changes == 0, try phones.allSatisfy({ try $0.store.queue().isEmpty }) { return }
        }
        fail("the phones were still changing the server after eight rounds; queued: "
             + (try phones.flatMap { try $0.store.queue() }.map { "\($0.table.rawValue) \($0.lastError ?? "")" }.joined(separator: ", ")))
    }

    func verify() async throws {
        for phone in phones {
            try await expectPhone(phone, equalsServerFor: phone.user!, in: world, context: context)
            let doubled = try phone.store.rows(.moments, where: "deleted = 0 group by user_square_id having count(*) > 1")
            if !doubled.isEmpty { fail("\(phone.name) has two live moments on one square") }
        }
        let violations = try await world.owner.query("""
            select u.id::text || ' ' || v.code || ' ' || coalesce(v.square::text, '') from grids.user_grids u
            cross join lateral private.board_violations(u.id) v where not u.deleted
            """).decode(String.self)
        if !violations.isEmpty { fail("boards break the rules: \(violations)") }
        try await verifyNothingLost()
    }

    /// Every moment, entry and photo a phone made is on the server, and is a tombstone
    /// only for a reason the rules give.
    private func verifyNothingLost() async throws {
        struct Stored: Decodable {
            var id: UUID
            var deleted: Bool
            var mergedInto: UUID?
            var momentID: UUID?
            var groupID: UUID?

            enum CodingKeys: String, CodingKey {
                case id, deleted, mergedInto = "merged_into", momentID = "moment_id", groupID = "group_id"
            }
        }
        let moments = Dictionary(uniqueKeysWithValues: try await world.owner.query(
            "select id, deleted, merged_into, null::uuid as moment_id, group_id from grids.moments").decode(Stored.self).map { ($0.id, $0) })
        for id in made[.moments, default: []] {
            guard let moment = moments[id] else { fail("moment \(id.lowercased) was lost"); continue }
            if moment.deleted && !deletedByPhone.contains(id) && moment.mergedInto == nil {
                fail("moment \(id.lowercased) is deleted though no phone deleted it and it lost no conflict")
            }
        }
        /// Where a part's moment leads: a live moment, or nil when the chain ends in a tombstone.
        func liveEnd(_ moment: UUID?) -> UUID? {
            var current = moment
            for _ in 0..<8 {
                guard let id = current, let row = moments[id] else { return nil }
                if !row.deleted { return id }
                current = row.mergedInto
            }
            return nil
        }
        for (table, sql) in [(SyncedTable.momentEntries, "select id, deleted, merged_into, moment_id, group_id from grids.moment_entries"),
                             (.photos, "select id, deleted, null::uuid as merged_into, moment_id, group_id from grids.photos")] {
            let stored = Dictionary(uniqueKeysWithValues: try await world.owner.query(PostgresQuery(unsafeSQL: sql))
                .decode(Stored.self).map { ($0.id, $0) })
            for id in made[table, default: []] {
                guard let part = stored[id] else { fail("\(table.rawValue) \(id.lowercased) was lost"); continue }
                guard part.deleted, !deletedByPhone.contains(id), part.mergedInto == nil else { continue }
                let parent = part.momentID.flatMap { moments[$0] }
                // Its moment was deleted (by a phone, or as a solo conflict's loser): the part went with it.
                let wentWithItsMoment = parent.map { $0.deleted && (deletedByPhone.contains($0.id) || $0.groupID == nil || liveEnd($0.id) == nil) } ?? false
                if !wentWithItsMoment {
                    fail("\(table.rawValue) \(id.lowercased) is deleted though its moment leads to live \(liveEnd(part.momentID)?.lowercased ?? "nothing"): \(part) parent \(String(describing: parent))")
                }
            }
        }
        let resurrected = try await world.owner.query("""
            select id from grids.moments where id = any(\(Array(tombstones))::uuid[]) and not deleted
            union all select id from grids.moment_entries where id = any(\(Array(tombstones))::uuid[]) and not deleted
            union all select id from grids.photos where id = any(\(Array(tombstones))::uuid[]) and not deleted
            """).decode(UUID.self)
        if !resurrected.isEmpty { fail("tombstones came back to life: \(resurrected.map(\.lowercased))") }
    }
}
