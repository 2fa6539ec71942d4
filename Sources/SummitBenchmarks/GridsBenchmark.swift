import Foundation
import Summit
import Postgres

/// What a friend's profile costs as the moments table grows.
///
/// One person (the owner) has 240 moments on six boards of mixed audiences; a
/// friend reads the ones they may see with `grids.visible_moments_of` — the
/// can_view() rule, run as the friend with their role and claims. The baseline
/// is the very same rows fetched by primary key by the table owner, where no
/// rule runs at all. Between measurements the table grows with other people's
/// moments, so the ratio shows whether visibility costs more as data piles up.
public struct GridsBenchmark: Sendable {
    public struct Measurement: Sendable, Encodable {
        /// Rows in grids.moments when measured.
        public var moments: Int
        /// Rows the friend may see (the same at every size).
        public var visible: Int
        /// Median time of `visible_moments_of` as the friend.
        public var viewMilliseconds: Double
        /// Median time of the same rows by primary key as the table owner.
        public var primaryKeyMilliseconds: Double
        /// Median time of `private.can_view()` called once per owner's moment, as the friend.
        public var canViewPerRowMilliseconds: Double
        public var ratio: Double { viewMilliseconds / primaryKeyMilliseconds }

        enum CodingKeys: String, CodingKey {
            case moments, visible, viewMilliseconds, primaryKeyMilliseconds, canViewPerRowMilliseconds, ratio
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(moments, forKey: .moments)
            try container.encode(visible, forKey: .visible)
            try container.encode(viewMilliseconds, forKey: .viewMilliseconds)
            try container.encode(primaryKeyMilliseconds, forKey: .primaryKeyMilliseconds)
            try container.encode(canViewPerRowMilliseconds, forKey: .canViewPerRowMilliseconds)
            try container.encode(ratio, forKey: .ratio)
        }
    }

    public var sizes: [Int]
    public var runs: Int

    /// Moments the owner has; the rest of each size is other people's.
    public static let ownerMoments = 240
    /// Filler people each have about this many moments, so their number grows with the table.
    static let momentsPerFillerPerson = 200

    let owner = UUID()
    let friend = UUID()

    public init(sizes: [Int] = [10_000, 100_000, 1_000_000], runs: Int = 25) {
        self.sizes = sizes.sorted()
        self.runs = max(1, runs)
    }

    /// Runs every size in `database` (a scratch database: it fills it with data).
    public func run(on database: PostgresConfiguration, progress: @Sendable (String) -> Void) async throws -> [Measurement] {
        guard let smallest = sizes.first, smallest > Self.ownerMoments else {
            throw CLIError("every size must be larger than the owner's \(Self.ownerMoments) moments",
                           fix: "give sizes above \(Self.ownerMoments)")
        }
        // The loader is the table owner (and loads the data); the viewer acts as the friend.
        return try await PostgresConnection.withConnection(database, applicationName: "summit bench") { loader in
            try await PostgresConnection.withConnection(database, applicationName: "summit bench") { viewer in
                try await run(loader: loader, viewer: viewer, progress: progress)
            }
        }
    }

    private func run(loader: PostgresConnection, viewer: PostgresConnection,
                     progress: (String) -> Void) async throws -> [Measurement] {
        progress("setting up the owner, a friend, and the owner's \(Self.ownerMoments) moments…")
        try await setUp(loader)
        var results: [Measurement] = []
        var loaded = Self.ownerMoments
        for size in sizes {
            progress("loading \((size - loaded).formatted()) moments of other people (to \(size.formatted()))…")
            try await loadFiller(from: loaded, to: size, on: loader)
            loaded = size
            progress("measuring at \(size.formatted()) moments (\(runs) runs)…")
            results.append(try await measure(size: size, loader: loader, viewer: viewer))
        }
        return results
    }

    private func setUp(_ connection: PostgresConnection) async throws {
        try await connection.query("""
            insert into auth.users (id, email, raw_user_meta_data) values
              (\(owner), 'owner@bench.test', '{"username": "bench_owner"}'),
              (\(friend), 'friend@bench.test', '{"username": "bench_friend"}')
            """)
        try await connection.query(
            "insert into social.friendships (user_a, user_b) values (least(\(owner)::uuid, \(friend)::uuid), greatest(\(owner)::uuid, \(friend)::uuid))")
        // Six boards on the starter grids, audiences mixed; 40 moments each, in reveal
        // order (so every square is revealed by its neighbour), audiences cycling.
        try await connection.simpleQuery("""
            drop table if exists bench_moments;
            create temp table bench_moments as
              select b.board, r.k, private.v5('square:' || b.board || ':' || r.pos) as square_id,
                     (array['private', 'friends', 'public'])[1 + (r.k % 3)::int]::grids.audience as audience
              from (select private.v5('bench:board:' || s.key) as board, g.size
                    from unnest(array['small-joys', 'close-to-home', 'out-the-door', 'kitchen-table',
                                      'through-the-year', 'hundred-firsts']) s(key)
                    join grids.grids g on g.starter_key = s.key) b
              cross join lateral unnest(private.reveal_order(b.size)) with ordinality r(pos, k)
              where r.k <= 40;
            grant select on bench_moments to authenticated;
            """)
        try await connection.acting(as: .user(owner)) { connection in
            // The app's own path: RLS, triggers, R1 squares, R3 reveals, V-A3 clamps.
            try await connection.simpleQuery("""
                insert into grids.user_grids (id, grid_id, audience, created_at, updated_at)
                select private.v5('bench:board:' || s.key), g.id,
                       (array['friends', 'public', 'private', 'friends', 'public', 'friends'])[s.k]::grids.audience, now(), now()
                from unnest(array['small-joys', 'close-to-home', 'out-the-door', 'kitchen-table',
                                  'through-the-year', 'hundred-firsts']) with ordinality s(key, k)
                join grids.grids g on g.starter_key = s.key;
                do $$
                declare
                  r record;
                begin
                  for r in select * from bench_moments order by board, k loop
                    insert into grids.moments (id, user_square_id, title, body, happened_on, audience, created_at, updated_at)
                    values (gen_random_uuid(), r.square_id, 'Moment ' || r.k, 'A few words about it.',
                            current_date - r.k::int, r.audience, now() - make_interval(hours => r.k::int), now());
                  end loop;
                end
                $$;
                """)
        }
        let count = try await connection.query("select count(*) from grids.moments where user_id = \(owner)").scalar(Int.self)
        guard count == Self.ownerMoments else {
            throw CLIError("the owner has \(count) moments, not \(Self.ownerMoments)", fix: "check the game-rule triggers")
        }
    }

    /// Other people's moments, set-based with triggers and foreign keys off (only
    /// their volume matters: they share the table and its indexes with the owner's).
    private func loadFiller(from start: Int, to end: Int, on connection: PostgresConnection) async throws {
        try await connection.transaction { connection in
            try await connection.simpleQuery("set local session_replication_role = replica; set local synchronous_commit = off")
            try await connection.query("""
                insert into grids.moments (id, user_square_id, user_grid_id, user_id, title, body, happened_on, audience,
                                           created_at, updated_at)
                select gen_random_uuid(), gen_random_uuid(), md5('board:' || (i / 40))::uuid,
                       md5('person:' || (i / \(Self.momentsPerFillerPerson)))::uuid, 'Moment', 'Some words.',
                       date '2026-01-01' + (i % 365), (array['private', 'friends', 'public'])[1 + i % 3]::grids.audience,
                       now() - make_interval(mins => i), now()
                from generate_series(\(start)::int, \(end - 1)::int) i
                """)
        }
        try await connection.simpleQuery("analyze grids.moments")
    }

    private func measure(size: Int, loader: PostgresConnection, viewer: PostgresConnection) async throws -> Measurement {
        let owner = owner, friend = friend, runs = runs
        // What can_view() says, row by row, decides what the friend must get.
        let expected = try await loader.query("""
            select id from grids.moments where user_id = \(owner) and private.can_view(\(friend), 'moment', id) order by id
            """).decode(UUID.self)
        let ownerMoments = try await loader.query("select id from grids.moments where user_id = \(owner)").decode(UUID.self)
        let view: PostgresQuery = """
            select moment_id, user_grid_id, title, happened_on, body, created_at from grids.visible_moments_of(\(owner), 500)
            """
        let byKey: PostgresQuery = """
            select id, user_grid_id, title, happened_on, body, created_at from grids.moments where id = any(\(expected)::uuid[])
            """
        let perRow: PostgresQuery = """
            select count(*) from unnest(\(ownerMoments)::uuid[]) id where private.can_view(auth.uid(), 'moment', id)
            """
        let timings = try await viewer.acting(as: .user(friend)) { viewer in
            let seen = try await viewer.query(view).map { try $0.decode(UUID.self, at: 0) }.sorted { $0.uuidString < $1.uuidString }
            guard seen == expected.sorted(by: { $0.uuidString < $1.uuidString }) else {
                throw CLIError("visible_moments_of returned \(seen.count) moments where can_view() admits \(expected.count)",
                               fix: "the two must agree; check grids.visible_moments_of against private.can_view")
            }
            var viewTimes: [Double] = [], keyTimes: [Double] = [], rowTimes: [Double] = []
            // A few warm-up rounds, then alternate so both paths see the same cache and load.
            for round in 0..<(runs + 5) {
                var start = ContinuousClock.now
                _ = try await viewer.query(view)
                let v = Self.milliseconds(ContinuousClock.now - start)
                // Timed on the owner's connection itself, so the hop between connections isn't
                // counted; and by the primary key's index even where the planner would rather
                // scan a small table whole, so the baseline is the same kind of read at every size.
                let k = try await loader.transaction { loader in
                    try await loader.simpleQuery("set local enable_seqscan = off; set local enable_bitmapscan = off")
                    let start = ContinuousClock.now
                    _ = try await loader.query(byKey)
                    return Self.milliseconds(ContinuousClock.now - start)
                }
                start = ContinuousClock.now
                _ = try await viewer.query(perRow)
                let r = Self.milliseconds(ContinuousClock.now - start)
                if round >= 5 { viewTimes.append(v); keyTimes.append(k); rowTimes.append(r) }
            }
            return (Self.median(viewTimes), Self.median(keyTimes), Self.median(rowTimes))
        }
        let total = try await loader.query("select count(*) from grids.moments").scalar(Int.self)
        return Measurement(moments: total, visible: expected.count, viewMilliseconds: timings.0,
                           primaryKeyMilliseconds: timings.1, canViewPerRowMilliseconds: timings.2)
    }

    static func milliseconds(_ elapsed: Duration) -> Double {
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
