import Foundation
import Postgres
import PostgresServer

/// The PostgreSQL server Summit works against: the one `DATABASE_URL` names, or
/// the embedded cluster in the workspace's home folder.
public struct SummitDatabase: Sendable {
    public enum Server: Sendable {
        case external(PostgresConfiguration)
        case embedded(EmbeddedCluster)
    }

    public let server: Server

    /// The database the embedded cluster keeps Summit's data in.
    public static let embeddedDatabaseName = "summit"

    public init(workspace: Workspace) throws {
        if let url = workspace.databaseURL {
            do {
                server = .external(try PostgresConfiguration(url))
            } catch let error as PostgresError {
                throw SetupError("DATABASE_URL is not usable: \(error.message)",
                               fix: "fix the URL, or unset DATABASE_URL to use the embedded cluster")
            }
        } else {
            server = .embedded(EmbeddedCluster(home: workspace.home, environment: workspace.environment))
        }
    }

    public var isEmbedded: Bool {
        if case .embedded = server { return true }
        return false
    }

    /// Starts the embedded cluster when needed, makes sure the database exists, and
    /// returns how to connect to it.
    public func prepare() async throws -> PostgresConfiguration {
        switch server {
        case .external(let configuration):
            try await Self.checkReachable(configuration)
            return configuration
        case .embedded(let cluster):
            let running = try await cluster.start()
            try await Self.createDatabaseIfMissing(Self.embeddedDatabaseName, admin: running.configuration(database: "postgres"))
            return running.configuration(database: Self.embeddedDatabaseName)
        }
    }

    /// A connection from which databases can be created and dropped.
    public func prepareAdmin() async throws -> PostgresConfiguration {
        switch server {
        case .external(let configuration):
            try await Self.checkReachable(configuration)
            return configuration
        case .embedded(let cluster):
            return try await cluster.start().configuration(database: "postgres")
        }
    }

    static func checkReachable(_ configuration: PostgresConfiguration) async throws {
        do {
            try await PostgresConnection.withConnection(configuration) { _ in }
        } catch let error as PostgresError where error.isConnectionFailure {
            throw SetupError(error.message, fix: "check DATABASE_URL (and that the server runs), or unset it to use the embedded cluster")
        }
    }

    static func createDatabaseIfMissing(_ name: String, admin: PostgresConfiguration) async throws {
        try await PostgresConnection.withConnection(admin) { connection in
            let exists = try await connection.query("select count(*) from pg_database where datname = \(name)").scalar(Int.self) > 0
            guard !exists else { return }
            do {
                try await connection.simpleQuery("CREATE DATABASE \(PostgresQuery.quoteIdentifier(name))")
            } catch let error as PostgresError where error.code == "42P04" {
                // Another process created it first: that is what we wanted.
            }
        }
    }
}
