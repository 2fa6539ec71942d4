import Foundation
import Postgres
import PostgresServer
import SummitDatabase

/// The server every test in this process uses, set up once: `DATABASE_URL` when
/// set, else the workspace's embedded cluster (started if needed).
public actor TestServer {
    public static let shared = TestServer()

    /// The checkout these tests belong to.
    public nonisolated static let workspace: Workspace = {
        guard let workspace = Workspace.containing(file: #filePath) else {
            fatalError("cannot find migrations/ and sql/ above \(#filePath)")
        }
        return workspace
    }()

    private var admin: PostgresConfiguration?
    private var template: String?

    /// A connection to the server's maintenance database, for creating databases.
    public func adminConfiguration() async throws -> PostgresConfiguration {
        if let admin { return admin }
        let configuration = try await SummitDatabase(workspace: Self.workspace).prepareAdmin()
        admin = configuration
        return configuration
    }

    public func databases() async throws -> TestDatabases {
        TestDatabases(admin: try await adminConfiguration(), workspace: Self.workspace)
    }

    /// The migrated template, with the `tests` helpers (and pgTAP when the server has it).
    public func template() async throws -> String {
        if let template { return template }
        let name = try await databases().template()
        template = name
        return name
    }
}

/// A fresh database, cloned from the migrated template, for the length of `body`.
public func withFreshDatabase<T>(
    _ body: (PostgresConfiguration) async throws -> T
) async throws -> T {
    let databases = try await TestServer.shared.databases()
    let database = try await databases.create(from: try await TestServer.shared.template())
    return try await dropping(database, with: databases, body)
}

/// A copy of `database` (CREATE DATABASE … TEMPLATE) for the length of `body`, taken once
/// the last connections to it have closed (a server shutting down closes them a moment later).
public func withCopy<T>(
    of database: PostgresConfiguration, _ body: (PostgresConfiguration) async throws -> T
) async throws -> T {
    let databases = try await TestServer.shared.databases()
    guard let name = database.database else { throw PostgresError(code: .invalidParameterValue, message: "the database has no name") }
    var attempt = 0
    while true {
        do {
            return try await dropping(try await databases.create(from: name), with: databases, body)
        } catch let error as PostgresError where error.code.rawValue == "55006" && attempt < 50 {
            attempt += 1
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// Runs `body` on `database`, then drops it whatever happened.
private func dropping<T>(
    _ database: PostgresConfiguration, with databases: TestDatabases, _ body: (PostgresConfiguration) async throws -> T
) async throws -> T {
    do {
        let value = try await body(database)
        try await databases.drop(database)
        return value
    } catch {
        try? await databases.drop(database)
        throw error
    }
}

/// A fresh migrated database and one connection to it.
public func withFreshConnection<T>(
    _ body: (PostgresConnection) async throws -> T
) async throws -> T {
    try await withFreshDatabase { configuration in
        try await PostgresConnection.withConnection(configuration, body)
    }
}

/// An empty database (no migrations), for tests of the migrator itself.
public func withEmptyDatabase<T>(
    _ body: (PostgresConfiguration) async throws -> T
) async throws -> T {
    let databases = try await TestServer.shared.databases()
    return try await dropping(try await databases.createEmpty(), with: databases, body)
}

/// A folder under the system's temporary directory, removed afterwards. As root it
/// is opened to everyone, so the `postgres` OS user can reach a cluster made inside it.
public func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("summit-test-" + UUID().uuidString.prefix(8).lowercased())
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    chmod(folder.path, 0o755)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// The directory holding the built products (`summit`, the test bundle).
public var productsDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}
