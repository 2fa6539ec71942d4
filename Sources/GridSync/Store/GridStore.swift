import Foundation

/// A phone's AirStrive data: its SQLite database, the source of truth (seed,
/// "Sync"), in a documents folder that also holds its photo files.
///
/// Every change the app makes goes through a method here, which writes the
/// rows and marks them in `sync_queue` in one transaction; `SyncEngine` pushes
/// what is queued and pulls what changed. Not `Sendable`: one owner at a time.
public final class GridStore {
    /// The documents folder: the database and `photos/`. Photo paths are stored relative to it.
    public let folder: URL
    let database: SQLiteDatabase
    /// The phone's clock; it stamps every write.
    public var clock: PhoneClock
    /// This install's id: the second half of every write's key (C2).
    public let deviceID: UUID
    /// Where new row ids come from: random (version 4) unless a simulation replays a seed.
    public var newID: () -> UUID

    public static let databaseFileName = "airstrive.sqlite"

    /// Opens the store in `folder` (made if missing), creating its schema and device id on first use.
    public init(folder: URL, clock: PhoneClock = PhoneClock(), ids: @escaping () -> UUID = UUID.init) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        self.folder = folder
        self.clock = clock
        newID = ids
        let database = try SQLiteDatabase(path: folder.appendingPathComponent(Self.databaseFileName).path)
        try database.transaction {
            for statement in LocalSchema.statements { try database.execute(statement) }
        }
        self.database = database
        if let stored = try Self.setting("device_id", in: database).flatMap(UUID.init(uuidString:)) {
            deviceID = stored
        } else {
            deviceID = ids()
            try Self.setSetting("device_id", deviceID.lowercased, in: database)
        }
    }

    public func now() -> Timestamp { clock.now() }

    // MARK: settings

    func setting(_ key: String) throws -> String? { try Self.setting(key, in: database) }

    func setSetting(_ key: String, _ value: String?) throws {
        if let value {
            try Self.setSetting(key, value, in: database)
        } else {
            try database.run("delete from settings where key = ?", [key])
        }
    }

    private static func setting(_ key: String, in database: SQLiteDatabase) throws -> String? {
        try database.scalar("select value from settings where key = ?", [key]).text
    }

    private static func setSetting(_ key: String, _ value: String, in database: SQLiteDatabase) throws {
        try database.run("insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value",
                         [key, value])
    }

    /// Runs `body` as one transaction of the phone's database.
    func transaction<T>(_ body: () throws -> T) throws -> T { try database.transaction(body) }
}
