import Foundation
import Postgres

/// The sync protocol over a PostgreSQL connection: each call runs in a
/// transaction of its own as the signed-in person (role `authenticated`, JWT
/// claims), exactly as the gateway runs an app's request, so row level
/// security and the triggers see that person.
public struct PostgresGridServer: GridServer {
    public let connection: PostgresConnection
    public let user: UUID

    public init(connection: PostgresConnection, user: UUID) {
        self.connection = connection
        self.user = user
    }

    public func saveGrid(_ grid: JSON) async throws -> JSON {
        let text = grid.text
        return try JSON(parsing: try await call { try await $0.query("select grids.save_grid(\(text)::jsonb)::text").scalar(String.self) })
    }

    public func push(_ table: SyncedTable, batches: [[JSON]]) async throws -> [[PushOutcome]] {
        let name = table.rawValue
        let queries: [PostgresQuery] = batches.map { batch in
            let rows = JSON.array(batch).text
            return "select grids.sync_push(\(name), \(rows)::jsonb)::text"
        }
        let answers = try await call { try await $0.pipeline(queries) }
        return try answers.map { rows in
            let answer = try JSON(parsing: try rows.scalar(String.self))
            guard let outcomes = answer.array else { throw GridServerError.unexpected("sync_push answered \(answer.text.prefix(200))") }
            return try outcomes.map(PushOutcome.init(json:))
        }
    }

    public func pull(_ table: String, since: Timestamp?, afterID: UUID?) async throws -> PullPage {
        let since = since?.iso
        let text = try await call {
            try await $0.query("select grids.sync_pull(\(table), \(since)::timestamptz, \(afterID)::uuid)::text").scalar(String.self)
        }
        return try PullPage(json: try JSON(parsing: text))
    }

    public func pullGroup(_ group: UUID, _ table: SyncedTable, afterID: UUID?) async throws -> PullPage {
        let name = table.rawValue
        let text = try await call {
            try await $0.query("select grids.sync_pull_group(\(group), \(name), \(afterID)::uuid)::text").scalar(String.self)
        }
        return try PullPage(json: try JSON(parsing: text))
    }

    public func myGroups() async throws -> [UUID] {
        try await call { try await $0.query("select group_id from grids.my_groups()").decode(UUID.self) }
    }

    public func uploadPhoto(_ photo: UUID, path: String, bytes: [UInt8]) async throws -> JSON? {
        let owner = user, content = Data(bytes)
        let text = try await call { connection in
            try await connection.query("""
                insert into storage.objects (bucket_id, name, owner, content, metadata)
                values ('photos', \(path), \(owner), \(content), '{"mimetype": "image/webp"}')
                on conflict (bucket_id, name) do update set content = excluded.content, metadata = excluded.metadata,
                  updated_at = now()
                """)
            return try await connection.query("select grids.photo_uploaded(\(photo))::text").scalar(String.self)
        }
        let row = try JSON(parsing: text)
        return row.isNull ? nil : row
    }

    public func downloadPhoto(path: String) async throws -> [UInt8]? {
        try await call { connection in
            try await connection.query("select content from storage.objects where bucket_id = 'photos' and name = \(path)")
                .first.map { try $0.decode(Data.self, at: 0) }.map { [UInt8]($0) }
        }
    }

    /// Runs `body` as the person, in a transaction; failures become `GridServerError`.
    private func call<T: Sendable>(_ body: @Sendable (isolated PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await connection.acting(as: .user(user), body)
        } catch let error as PostgresError {
            if error.isConnectionFailure { throw GridServerError.transport(error.message) }
            if error.code == .raiseException { throw GridServerError.refused(code: error.message, hint: error.hint) }
            throw GridServerError.database(sqlState: error.code.rawValue, message: error.message)
        }
    }
}
