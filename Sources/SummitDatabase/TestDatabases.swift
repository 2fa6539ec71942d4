import Digest
import Foundation
import Migrator
import Postgres

/// Throwaway databases for tests, cloned from a migrated template.
///
/// Migrating takes seconds; cloning a template takes a fraction of one. The
/// template's name carries a digest of every migration, repeatable script and
/// test helper, so any edit builds a fresh one and an unchanged tree reuses it
/// across test runs and processes.
public struct TestDatabases: Sendable {
    public let admin: PostgresConfiguration
    public let workspace: Workspace

    public init(admin: PostgresConfiguration, workspace: Workspace) {
        self.admin = admin
        self.workspace = workspace
    }

    /// Name prefix of every database made here; nothing else is ever dropped.
    static let testPrefix = "summit_test_"
    static let templatePrefix = "summit_template_"
    /// Serializes template builds across processes.
    static let templateLock: Int64 = 0x5355_4D4D_5454

    /// The template for the current files, built if it doesn't exist yet. It has the
    /// pgTAP extension whenever the server offers it; `requirePgTap` makes its absence
    /// an error (for the pgTAP runner) rather than a template without it.
    public func template(requirePgTap: Bool = false) async throws -> String {
        let source = try workspace.migrationSource()
        let pgtap = try await PostgresConnection.withConnection(admin) { connection in
            if requirePgTap { try await Self.requireExtension("pgtap", on: connection) }
            return try await Self.extensionAvailable("pgtap", on: connection)
        }
        let helpers = try String(contentsOf: workspace.testHelpersFile, encoding: .utf8)
        var digest = SHA256()
        for migration in source.migrations { digest.update(Array(migration.sha256.utf8)) }
        for script in source.repeatables { digest.update(Array((script.fileName + script.sha256).utf8)) }
        digest.update(Array(helpers.utf8))
        digest.update(Array((pgtap ? "pgtap" : "plain").utf8))
        let name = Self.templatePrefix + String(digest.finalize().hexString.prefix(16))

        try await PostgresConnection.withConnection(admin) { connection in
            try await connection.query("select pg_advisory_lock(\(Self.templateLock))")
            do {
                if try await !Self.databaseExists(name, connection) {
                    try await build(name, source: source, helpers: helpers, pgtap: pgtap, admin: connection)
                }
                try await connection.query("select pg_advisory_unlock(\(Self.templateLock))")
            } catch {
                _ = try? await connection.query("select pg_advisory_unlock(\(Self.templateLock))")
                throw error
            }
        }
        return name
    }

    /// A new database cloned from `template`; drop it with `drop(_:)`.
    public func create(from template: String) async throws -> PostgresConfiguration {
        try await create(suffix: " TEMPLATE \(PostgresQuery.quoteIdentifier(template))")
    }

    /// A new, empty database (no migrations); drop it with `drop(_:)`.
    public func createEmpty() async throws -> PostgresConfiguration {
        try await create(suffix: "")
    }

    /// Names carry the creating process's id, so `dropAbandoned` can tell whose they are.
    private func create(suffix: String) async throws -> PostgresConfiguration {
        let name = Self.testPrefix + "\(getpid())_" + UUID().uuidString.prefix(8).lowercased()
        try await PostgresConnection.withConnection(admin) { connection in
            try await connection.simpleQuery("CREATE DATABASE \(PostgresQuery.quoteIdentifier(name))" + suffix)
        }
        return admin.with(database: name)
    }

    public func drop(_ database: PostgresConfiguration) async throws {
        guard let name = database.database, name.hasPrefix(Self.testPrefix) else { return }
        try await PostgresConnection.withConnection(admin) { connection in
            try await connection.simpleQuery("DROP DATABASE IF EXISTS \(PostgresQuery.quoteIdentifier(name)) WITH (FORCE)")
        }
    }

    /// Drops test databases left by processes that died before cleaning up.
    public func dropAbandoned() async throws {
        try await PostgresConnection.withConnection(admin) { connection in
            let names = try await connection.query(
                "select datname from pg_database where datname like \(Self.testPrefix + "%")").decode(String.self)
            for name in names {
                let pidText = name.dropFirst(Self.testPrefix.count).prefix { $0 != "_" }
                guard let pid = Int32(pidText), kill(pid, 0) != 0, errno == ESRCH else { continue }
                try await connection.simpleQuery("DROP DATABASE IF EXISTS \(PostgresQuery.quoteIdentifier(name)) WITH (FORCE)")
            }
        }
    }

    private func build(_ name: String, source: MigrationSource, helpers: String, pgtap: Bool,
                       admin connection: PostgresConnection) async throws {
        // Build under a scratch name and rename at the end: a template that exists is a complete one.
        let scratch = name + "_building"
        try await connection.simpleQuery("DROP DATABASE IF EXISTS \(PostgresQuery.quoteIdentifier(scratch)) WITH (FORCE)")
        try await connection.simpleQuery("CREATE DATABASE \(PostgresQuery.quoteIdentifier(scratch))")
        do {
            let target = try await PostgresConnection.connect(admin.with(database: scratch))
            do {
                try await Migrator(source: source).migrate(on: target)
                if pgtap { try await target.simpleQuery("CREATE EXTENSION IF NOT EXISTS pgtap") }
                try await target.transaction { connection in
                    try await Migrator.runScript(helpers, named: "pgtap/support/tests_schema.sql", on: connection)
                }
                await target.close()
            } catch {
                await target.close()
                throw error
            }
            try await connection.simpleQuery("""
                ALTER DATABASE \(PostgresQuery.quoteIdentifier(scratch)) RENAME TO \(PostgresQuery.quoteIdentifier(name));
                """)
            try await connection.simpleQuery(
                "ALTER DATABASE \(PostgresQuery.quoteIdentifier(name)) WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
        } catch {
            _ = try? await connection.simpleQuery("DROP DATABASE IF EXISTS \(PostgresQuery.quoteIdentifier(scratch)) WITH (FORCE)")
            throw error
        }
        // Older templates belong to files that no longer exist.
        let stale = try await connection.query("""
            select datname from pg_database
            where datname like \(Self.templatePrefix + "%") and datname <> \(name) and datname not like '%_building'
            """).decode(String.self)
        for old in stale {
            _ = try? await connection.simpleQuery("ALTER DATABASE \(PostgresQuery.quoteIdentifier(old)) WITH IS_TEMPLATE false")
            _ = try? await connection.simpleQuery("DROP DATABASE IF EXISTS \(PostgresQuery.quoteIdentifier(old)) WITH (FORCE)")
        }
    }

    static func databaseExists(_ name: String, _ connection: PostgresConnection) async throws -> Bool {
        try await connection.query("select count(*) from pg_database where datname = \(name)").scalar(Int.self) > 0
    }

    static func extensionAvailable(_ name: String, on connection: PostgresConnection) async throws -> Bool {
        try await connection.query("select count(*) from pg_available_extensions where name = \(name)").scalar(Int.self) > 0
    }

    /// Throws a `CLIError` saying how to install `name` when the server lacks it.
    public static func requireExtension(_ name: String, on connection: PostgresConnection) async throws {
        guard try await !extensionAvailable(name, on: connection) else { return }
        let package = name == "pgtap" ? "postgresql-15-pgtap" : "the package that provides \(name)"
        throw SetupError("the PostgreSQL extension \(name) is not installed on the server at \(connection.configuration.target)",
                       fix: "install it (Debian: apt-get install \(package); scripts/test does this when run as root), "
                           + "or point DATABASE_URL at a server that has it (docker compose up)")
    }
}
