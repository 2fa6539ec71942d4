import Foundation
import GridSync
import Postgres
import SummitTestSupport
import Testing

/// A real server (a fresh database cloned from the migrated template) with
/// people on it, and phones — each a GridStore in a folder of its own — that
/// sync with it through the protocol, as those people.
final class SyncWorld {
    let database: PostgresConfiguration
    /// The database owner: for setting up what the apps do online (friendships,
    /// invites) and for reading the server as it really is.
    let owner: PostgresConnection
    let folder: URL
    private(set) var templates: [JSON] = []
    private var usernames: [UUID: String] = [:]

    private init(database: PostgresConfiguration, owner: PostgresConnection, folder: URL) {
        self.database = database
        self.owner = owner
        self.folder = folder
    }

    static func run(_ body: (SyncWorld) async throws -> Void) async throws {
        try await withFreshDatabase { database in
            try await withTemporaryFolder { folder in
                try await PostgresConnection.withConnection(database) { owner in
                    try await body(SyncWorld(database: database, owner: owner, folder: folder))
                }
            }
        }
    }

    /// A new account with a username.
    func person(_ username: String, id: UUID = UUID()) async throws -> UUID {
        try await owner.query("""
            insert into auth.users (id, email, raw_user_meta_data)
            values (\(id), \(username + "@example.test"), jsonb_build_object('username', \(username)::text))
            """)
        usernames[id] = username
        if templates.isEmpty { templates = try await StarterTemplates.fetch(from: server(id)) }
        return id
    }

    func server(_ user: UUID) -> PostgresGridServer {
        PostgresGridServer(connection: owner, user: user)
    }

    /// A phone signed in as `user`, with the starter templates an app bundles.
    func phone(_ name: String, of user: UUID?, skew: Double = 0, ids: @escaping () -> UUID = UUID.init) throws -> Phone {
        let phone = try Phone(name: name, folder: folder.appendingPathComponent(name), world: self, ids: ids)
        phone.simulated.clockSkew = skew
        if let user { try phone.signIn(user) }
        try phone.store.installTemplates(templates)
        return phone
    }

    func username(_ user: UUID) -> String? { usernames[user] }

    func befriend(_ a: UUID, _ b: UUID) async throws {
        try await owner.query("insert into social.friendships (user_a, user_b) values (least(\(a)::uuid, \(b)::uuid), greatest(\(a)::uuid, \(b)::uuid))")
    }

    /// Calls an RPC as `user` (what the app does online), answering its JSON.
    @discardableResult
    func rpc(_ user: UUID, _ sql: PostgresQuery) async throws -> JSON {
        let text = try await owner.acting(as: .user(user)) { try await $0.query(sql).scalar(String.self) }
        return try JSON(parsing: text)
    }

    /// `owner` starts a group from a board, invites `members` (friends of theirs) and they accept.
    func startGroup(_ board: UUID, owner creator: UUID, members: [UUID]) async throws {
        try await rpc(creator, "select grids.start_group(\(board))::text")
        for member in members {
            try await rpc(creator, "select grids.invite_to_group(\(board), array[\(member)]::uuid[])::text")
            let invite = try await owner.query("""
                select id from grids.group_invites where group_id = \(board) and invitee_id = \(member) and status = 'pending'
                """).scalar(UUID.self)
            try await rpc(member, "select grids.respond_group_invite(\(invite), true)::text")
        }
    }

    /// Live rows of `table` that `user` may read on the server (RLS), by id.
    func serverRows(_ table: SyncedTable, as user: UUID) async throws -> [UUID: SyncRow] {
        var rows: [UUID: SyncRow] = [:]
        var cursor: (since: Timestamp?, afterID: UUID)?
        repeat {
            let page = try await server(user).pull(table.rawValue, since: cursor?.since, afterID: cursor?.afterID)
            for json in page.rows {
                let row = try SyncRow(table: table, json: json)
                if !row.deleted { rows[row.id] = row }
            }
            cursor = page.next
        } while cursor != nil
        return rows
    }

    /// One value read on the server as its owner (no RLS).
    func scalar<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T {
        try await owner.query(query).scalar(T.self)
    }
}

/// A phone in a `SyncWorld`.
final class Phone {
    let name: String
    let simulated: SimulatedPhone
    unowned let world: SyncWorld

    init(name: String, folder: URL, world: SyncWorld, ids: @escaping () -> UUID) throws {
        self.name = name
        simulated = try SimulatedPhone(folder: folder, ids: ids)
        self.world = world
    }

    var store: GridStore { simulated.store }

    var user: UUID? { store.account.user }

    func signIn(_ user: UUID) throws {
        try store.signIn(user: user, username: world.username(user))
    }

    var isOnline: Bool {
        get { simulated.isOnline }
        set { simulated.isOnline = newValue }
    }

    @discardableResult
    func sync() async throws -> SyncReport {
        guard let user else { throw GridStoreError("\(name) is not signed in", fix: "sign it in") }
        return try await simulated.sync(with: world.server(user))
    }

    /// Live rows of `table` on this phone, by id.
    func rows(_ table: SyncedTable) throws -> [UUID: SyncRow] {
        Dictionary(try store.rows(table, where: "deleted = 0").map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Live rows of `table` on this phone, in id order (for choices a seed must replay).
    func live(_ table: SyncedTable) throws -> [SyncRow] {
        try store.rows(table, where: "deleted = 0 order by id")
    }

    /// Passes simulated time on this phone's clock (retry schedules, stamps).
    func advance(_ seconds: Double) { store.clock.advanced += seconds }
}

/// Compares a phone with the server, table by table: the same live rows with the same values.
func expectPhone(_ phone: Phone, equalsServerFor user: UUID, in world: SyncWorld,
                 tables: [SyncedTable] = [.profileInterests, .userGrids, .userSquares, .moments, .momentEntries, .photos],
                 context: String = "", sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for table in tables {
        let server = try await world.serverRows(table, as: user)
        let local = try phone.rows(table)
        let missing = Set(server.keys).subtracting(local.keys)
        let extra = Set(local.keys).subtracting(server.keys)
        let lacking = try missing.map { "\(server[$0]!.syncedJSON.text), on the phone \(try phone.store.row(table, $0)?.syncedJSON.text ?? "nothing")" }
        #expect(missing.isEmpty, "\(context)\(phone.name) lacks \(missing.count) live \(table.rawValue) rows the server has: \(lacking)",
                sourceLocation: sourceLocation)
        let having = extra.map { local[$0]!.syncedJSON.text }
        #expect(extra.isEmpty, "\(context)\(phone.name) has \(extra.count) live \(table.rawValue) rows the server does not: \(having)",
                sourceLocation: sourceLocation)
        for (id, row) in server {
            guard let mine = local[id] else { continue }
            #expect(mine.syncedJSON == row.syncedJSON, "\(context)\(phone.name): \(table.rawValue) \(id.lowercased) differs:\n phone  \(mine.syncedJSON.text)\n server \(row.syncedJSON.text)",
                    sourceLocation: sourceLocation)
        }
    }
}
