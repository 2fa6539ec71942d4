import Foundation
import Summit
import GridSync
import Postgres

/// What the AirStrive sync protocol costs against plain SQL: pulling a person's
/// moments page by page through `sync_pull` (as the person: RLS on, rows as
/// JSON) against the same rows read page by page by the table owner (no RLS);
/// and pushing new moments through `sync_push` (as the person: RLS, the LWW and
/// game-rule triggers; a batch written together, or row by row where its rows
/// touch) against the same rows written by the table owner with triggers off.
/// Both sides page and batch alike (500
/// rows a page, 200 a batch, batches pipelined). The phone's whole path — into
/// and out of its SQLite store — is timed too.
public struct SyncBenchmark: Sendable {
    /// One timed path.
    public struct Figure: Sendable, Encodable {
        public var path: String
        public var rows: Int
        public var seconds: Double
        public var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }

        enum CodingKeys: String, CodingKey { case path, rows, seconds, rowsPerSecond }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(rows, forKey: .rows)
            try container.encode(seconds, forKey: .seconds)
            try container.encode(rowsPerSecond, forKey: .rowsPerSecond)
        }
    }

    public struct Result: Sendable, Encodable {
        public var pullProtocol: Figure
        public var pullPlain: Figure
        public var pullIntoPhone: Figure
        public var pushProtocol: Figure
        public var pushPlain: Figure
        /// The rules alone: the same rows inserted as the person (RLS, triggers) a batch per statement.
        public var pushRules: Figure
        public var pushFromPhone: Figure
        /// Protocol rate over plain-SQL rate; the target is at least 0.5.
        public var pullRatio: Double { pullProtocol.rowsPerSecond / max(pullPlain.rowsPerSecond, 1e-9) }
        public var pushRatio: Double { pushProtocol.rowsPerSecond / max(pushPlain.rowsPerSecond, 1e-9) }

        enum CodingKeys: String, CodingKey {
            case pullProtocol, pullPlain, pullIntoPhone, pushProtocol, pushPlain, pushRules, pushFromPhone, pullRatio, pushRatio
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pullProtocol, forKey: .pullProtocol)
            try container.encode(pullPlain, forKey: .pullPlain)
            try container.encode(pullIntoPhone, forKey: .pullIntoPhone)
            try container.encode(pushProtocol, forKey: .pushProtocol)
            try container.encode(pushPlain, forKey: .pushPlain)
            try container.encode(pushRules, forKey: .pushRules)
            try container.encode(pushFromPhone, forKey: .pushFromPhone)
            try container.encode(pullRatio, forKey: .pullRatio)
            try container.encode(pushRatio, forKey: .pushRatio)
        }
    }

    public var pullRows: Int
    public var pushRows: Int
    /// Timed runs of each path; the fastest counts (each push run writes onto boards of its own).
    public var runs: Int

    let user = UUID()
    static let hundredFirsts = DeterministicID.starterGrid("hundred-firsts")

    public init(pullRows: Int = 100_000, pushRows: Int = 10_000, runs: Int = 3) {
        self.pullRows = pullRows
        self.pushRows = pushRows
        self.runs = max(1, runs)
    }

    /// Runs on `database` (a scratch database: it fills it), with phones in `folder`.
    public func run(on database: PostgresConfiguration, folder: URL, progress: @Sendable (String) -> Void) async throws -> Result {
        try await PostgresConnection.withConnection(database, applicationName: "summit bench sync") { owner in
            try await PostgresConnection.withConnection(database, applicationName: "summit bench sync") { client in
                progress("loading \(pullRows.formatted()) moments on \(boards(pullRows)) boards, and empty boards for \(pushRows.formatted()) more…")
                try await load(owner)
                let server = PostgresGridServer(connection: client, user: user)

                progress("pulling \(pullRows.formatted()) moments, \(runs) times each way…")
                var pullProtocol = Figure(path: "sync_pull as the person (RLS, JSON), parsed", rows: 0, seconds: .infinity)
                var pullPlain = Figure(path: "plain SQL as the table owner, decoded", rows: 0, seconds: .infinity)
                for _ in 0..<runs {
                    let plain = try await timed { try await pullPlainly(owner) }
                    if plain.seconds < pullPlain.seconds { pullPlain.seconds = plain.seconds; pullPlain.rows = plain.value }
                    let viaProtocol = try await timed { try await pullThroughProtocol(server) }
                    if viaProtocol.seconds < pullProtocol.seconds { pullProtocol.seconds = viaProtocol.seconds; pullProtocol.rows = viaProtocol.value }
                }
                guard pullProtocol.rows == pullRows, pullPlain.rows == pullRows else {
                    throw CLIError("the pulls read \(pullProtocol.rows) and \(pullPlain.rows) moments, not \(pullRows)",
                                   fix: "both paths must read the same rows; check sync_pull against the loaded data")
                }

                progress("a phone's first sync pulls everything into its SQLite…")
                let phone = try GridStore(folder: folder.appendingPathComponent("pulling-phone"))
                try phone.signIn(user: user)
                var report = SyncReport()
                let intoPhone = try await timed { try await SyncEngine(server: server).pull(phone, into: &report) }
                let moments = try phone.rows(.moments, where: "deleted = 0").count
                guard moments == pullRows else {
                    throw CLIError("the phone holds \(moments) moments after its pull, not \(pullRows)", fix: "check SyncEngine.pull")
                }

                progress("pushing \(pushRows.formatted()) moments, \(runs) times each way (onto fresh boards each time)…")
                // Warm up: the first call in a session plans every trigger's statements.
                try await pushThroughProtocol(server, try await momentRows("push-warm-up", owner))
                var pushProtocol = (value: (), seconds: Double.infinity), pushPlain = (value: (), seconds: Double.infinity)
                var pushRules = (value: (), seconds: Double.infinity)
                for run in 0..<runs {
                    let protocolRows = try await momentRows("push-protocol-\(run)", owner)
                    let plainRows = try await momentRows("push-plain-\(run)", owner, storedShape: true)
                    let rulesRows = try await momentRows("push-rules-\(run)", owner)
                    let viaProtocol = try await timed { try await pushThroughProtocol(server, protocolRows) }
                    if viaProtocol.seconds < pushProtocol.seconds { pushProtocol = viaProtocol }
                    let plain = try await timed { try await pushPlainly(owner, plainRows) }
                    if plain.seconds < pushPlain.seconds { pushPlain = plain }
                    let rules = try await timed { try await pushUnderTheRules(client, rulesRows) }
                    if rules.seconds < pushRules.seconds { pushRules = rules }
                    for set in ["push-protocol-\(run)", "push-plain-\(run)", "push-rules-\(run)"] {
                        let stored = try await owner.query("""
                            select count(*) from grids.moments m join grids.user_grids u on u.id = m.user_grid_id
                            where u.id in (select md5(\(set) || ':' || b)::uuid from generate_series(0, \(boards(pushRows) - 1)) b)
                              and not m.deleted
                            """).scalar(Int.self)
                        guard stored == pushRows else {
                            throw CLIError("\(set) stored \(stored) moments, not \(pushRows)", fix: "a push must store every row it times")
                        }
                    }
                }

                progress("a phone pushes \(pushRows.formatted()) queued moments from its SQLite…")
                let pusher = try await phoneWithQueuedMoments(folder: folder.appendingPathComponent("pushing-phone"), owner: owner)
                var pushed = SyncReport()
                let fromPhone = try await timed { try await SyncEngine(server: server).push(pusher, into: &pushed) }
                guard pushed.pushed[.applied, default: 0] == pushRows, try pusher.queue().isEmpty else {
                    throw CLIError("the phone pushed \(pushed.pushed) and still has \(try pusher.queue().count) queued",
                                   fix: "every queued moment must be applied")
                }

                return Result(
                    pullProtocol: pullProtocol, pullPlain: pullPlain,
                    pullIntoPhone: Figure(path: "a phone's sync pull into SQLite (every table)", rows: report.pulled, seconds: intoPhone.seconds),
                    pushProtocol: Figure(path: "sync_push as the person (RLS, triggers)", rows: pushRows, seconds: pushProtocol.seconds),
                    pushPlain: Figure(path: "plain SQL as the table owner (no RLS, no triggers)", rows: pushRows, seconds: pushPlain.seconds),
                    pushRules: Figure(path: "the rules alone: as the person, a statement per batch", rows: pushRows, seconds: pushRules.seconds),
                    pushFromPhone: Figure(path: "a phone's sync push from its SQLite queue", rows: pushRows, seconds: fromPhone.seconds))
            }
        }
    }

    private func boards(_ rows: Int) -> Int { (rows + 99) / 100 }

    /// The person; boards of 10 x 10 squares, every square revealed; one moment on each
    /// square of the pull boards. Loaded by the owner with triggers off: only the rows matter.
    private func load(_ owner: PostgresConnection) async throws {
        try await owner.query("""
            insert into auth.users (id, email, raw_user_meta_data)
            values (\(user), 'bench-sync@summit.test', '{"username": "bench_sync"}')
            """)
        try await owner.transaction { owner in
            try await owner.simpleQuery("set local session_replication_role = replica; set local synchronous_commit = off")
            let pushSets = (0..<runs).flatMap { ["push-protocol-\($0)", "push-plain-\($0)", "push-rules-\($0)"] }
                + ["push-warm-up", "push-phone"]
            for (set, count) in [("pull", boards(pullRows))] + pushSets.map({ ($0, boards(pushRows)) }) {
                try await owner.query("""
                    insert into grids.user_grids (id, user_id, grid_id, audience, created_at, updated_at)
                    select md5(\(set) || ':' || b)::uuid, \(user), \(Self.hundredFirsts), 'private', now(), now()
                    from generate_series(0, \(count - 1)) b
                    """)
                try await owner.query("""
                    insert into grids.user_squares (id, user_grid_id, user_id, position, revealed_at, created_at, updated_at)
                    select private.v5('square:' || md5(\(set) || ':' || b)::uuid || ':' || p), md5(\(set) || ':' || b)::uuid,
                           \(user), p, now(), now(), now()
                    from generate_series(0, \(count - 1)) b cross join generate_series(0, 99) p
                    """)
            }
            try await owner.query("""
                insert into grids.moments (id, user_square_id, user_grid_id, user_id, title, body, happened_on, place, audience,
                                           created_at, updated_at, device_id)
                select md5('moment:' || i)::uuid, private.v5('square:' || md5('pull:' || (i / 100))::uuid || ':' || (i % 100)),
                       md5('pull:' || (i / 100))::uuid, \(user), 'Moment ' || i, 'A few words about moment ' || i || '.',
                       date '2026-01-01' + (i % 365), 'Somewhere', 'private', now(), now(), md5('device')::uuid
                from generate_series(0, \(pullRows - 1)) i
                """)
        }
        try await owner.simpleQuery("analyze grids.user_grids; analyze grids.user_squares; analyze grids.moments")
    }

    // MARK: pull

    private func pullThroughProtocol(_ server: PostgresGridServer) async throws -> Int {
        var rows = 0
        var cursor: (since: Timestamp?, afterID: UUID)?
        repeat {
            let page = try await server.pull("moments", since: cursor?.since, afterID: cursor?.afterID)
            for json in page.rows { _ = try SyncRow(table: .moments, json: json); rows += 1 }
            cursor = page.next
        } while cursor != nil
        return rows
    }

    /// The same rows, the same pages, as the table owner with no rule at all.
    private func pullPlainly(_ owner: PostgresConnection) async throws -> Int {
        struct Moment: Decodable {
            var id: UUID
            var userSquareId: UUID
            var userGridId: UUID
            var userId: UUID?
            var groupId: UUID?
            var title: String
            var body: String
            var happenedOn: String
            var place: String
            var weather: String
            var withWhom: String
            var audience: String
            var hiddenAt: Date?
            var mergedInto: UUID?
            var createdAt: Date
            var updatedAt: Date
            var deviceId: UUID
            var serverUpdatedAt: Date
            var deleted: Bool
        }
        var rows = 0
        var since = Date.distantPast, after = DeterministicID.serverDevice
        while true {
            let page = try await owner.query("""
                select id, user_square_id, user_grid_id, user_id, group_id, title, body, happened_on::text, place, weather,
                       with_whom, audience::text, hidden_at, merged_into, created_at, updated_at, device_id, server_updated_at, deleted
                from grids.moments where (server_updated_at, id) > (\(since), \(after)) order by server_updated_at, id limit 500
                """).decode(Moment.self)
            rows += page.count
            guard page.count == 500, let last = page.last else { break }
            (since, after) = (last.serverUpdatedAt, last.id)
        }
        return rows
    }

    // MARK: push

    /// The boards of a set, in order.
    private func boardIDs(_ set: String, _ owner: PostgresConnection) async throws -> [UUID] {
        try await owner.query("select md5(\(set) || ':' || b)::uuid from generate_series(0, \(boards(pushRows) - 1)) b order by b")
            .decode(UUID.self)
    }

    /// New moments for every square of a set of boards, as a phone sends them.
    private func momentRows(_ set: String, _ owner: PostgresConnection, storedShape: Bool = false) async throws -> [JSON] {
        let now = Timestamp.now().iso
        let boards = try await boardIDs(set, owner)
        return (0..<pushRows).map { i in
            let board = boards[i / 100]
            var row: [String: JSON] = [
                "id": .string(UUID().lowercased),
                "user_square_id": .string(DeterministicID.square(board: board, position: i % 100).lowercased),
                "title": .string("Pushed moment \(i)"), "body": .string("Words written offline, number \(i)."),
                "happened_on": "2026-02-01", "place": "The park", "weather": "", "with_whom": "", "audience": "private",
                "deleted": false, "created_at": .string(now), "updated_at": .string(now), "device_id": "0f0f0f0f-0000-4000-8000-000000000000",
            ]
            if storedShape {
                row["user_grid_id"] = .string(board.lowercased)
                row["user_id"] = .string(user.lowercased)
            }
            return .object(row)
        }
    }

    private func batches(_ rows: [JSON]) -> [[JSON]] {
        stride(from: 0, to: rows.count, by: 200).map { Array(rows[$0..<min($0 + 200, rows.count)]) }
    }

    private func pushThroughProtocol(_ server: PostgresGridServer, _ rows: [JSON]) async throws {
        let answers = try await server.push(.moments, batches: batches(rows))
        let errors = answers.joined().filter { $0.kind == .error }
        guard errors.isEmpty else {
            throw CLIError("\(errors.count) pushed moments failed (\(errors.first?.code ?? ""))", fix: "the pushed rows must be valid")
        }
    }

    /// The same kind of rows, the same batches, written by the owner with triggers off.
    private func pushPlainly(_ owner: PostgresConnection, _ rows: [JSON]) async throws {
        let queries: [PostgresQuery] = batches(rows).map { batch in
            let rows = JSON.array(batch).text
            return """
                insert into grids.moments (id, user_square_id, user_grid_id, user_id, title, body, happened_on, place, weather,
                                           with_whom, audience, deleted, created_at, updated_at, device_id)
                select id, user_square_id, user_grid_id, user_id, title, body, happened_on, place, weather, with_whom, audience,
                       deleted, created_at, updated_at, device_id
                from jsonb_populate_recordset(null::grids.moments, \(rows)::jsonb)
                on conflict (id) do update set title = excluded.title, body = excluded.body, happened_on = excluded.happened_on,
                  place = excluded.place, weather = excluded.weather, with_whom = excluded.with_whom,
                  audience = excluded.audience, deleted = excluded.deleted, updated_at = excluded.updated_at,
                  device_id = excluded.device_id
                """
        }
        try await owner.transaction { owner in
            try await owner.simpleQuery("set local session_replication_role = replica")
            _ = try await owner.pipeline(queries)
        }
    }

    /// What the rules cost by themselves: the same rows inserted as the person, RLS and
    /// every trigger on, but a statement per batch and no per-row answer. (A phone cannot
    /// push this way: a statement of many rows would mix up the words the moment triggers
    /// hand from row to row, and one bad row would fail the batch.)
    private func pushUnderTheRules(_ client: PostgresConnection, _ rows: [JSON]) async throws {
        let user = user
        let queries: [PostgresQuery] = batches(rows).map { batch in
            let rows = JSON.array(batch).text
            return """
                insert into grids.moments (id, user_square_id, title, body, happened_on, place, weather, with_whom, audience,
                                           deleted, created_at, updated_at, device_id)
                select id, user_square_id, title, body, happened_on, place, weather, with_whom, audience, deleted,
                       created_at, updated_at, device_id
                from jsonb_populate_recordset(null::grids.moments, \(rows)::jsonb)
                """
        }
        try await client.acting(as: .user(user)) { client in _ = try await client.pipeline(queries) }
    }

    /// A phone holding the push-phone boards, with a moment logged (queued) on every square.
    private func phoneWithQueuedMoments(folder: URL, owner: PostgresConnection) async throws -> GridStore {
        let phone = try GridStore(folder: folder)
        try phone.signIn(user: user)
        let rows = try await owner.query("""
            select coalesce(jsonb_agg(to_jsonb(g) - 'search_doc' || jsonb_build_object('squares',
                     (select jsonb_agg(prompt order by position) from grids.grid_squares where grid_id = g.id))), '[]')::text
            from grids.grids g where g.id = \(Self.hundredFirsts)
            union all
            select coalesce(jsonb_agg(to_jsonb(u)), '[]')::text from grids.user_grids u
            where u.id in (select md5('push-phone:' || b)::uuid from generate_series(0, \(boards(pushRows) - 1)) b)
            union all
            select coalesce(jsonb_agg(to_jsonb(s)), '[]')::text from grids.user_squares s
            where s.user_grid_id in (select md5('push-phone:' || b)::uuid from generate_series(0, \(boards(pushRows) - 1)) b)
            """).decode(String.self)
        for (table, text) in zip([SyncedTable.grids, .userGrids, .userSquares], rows) {
            for json in try JSON(parsing: text).array ?? [] { try phone.mergePulled(try SyncRow(table: table, json: json)) }
        }
        var logged = 0
        for board in try phone.boards() {
            for square in board.squares where logged < pushRows {
                try phone.logMoment(board: board.id, position: square.position, MomentDraft(title: "From the phone \(logged)", body: "Offline words."))
                logged += 1
            }
        }
        return phone
    }

    private func timed<T>(_ body: () async throws -> T) async throws -> (value: T, seconds: Double) {
        let start = ContinuousClock.now
        let value = try await body()
        let elapsed = ContinuousClock.now - start
        return (value, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
