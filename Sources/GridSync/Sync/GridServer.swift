import Foundation

/// What the server answered for one pushed row (spec §6.2).
public struct PushOutcome: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case applied, corrected, ignored, error
    }

    public var id: UUID
    public var kind: Kind
    /// The correction or error: a P0001 message (`grid_missing`) or a SQLSTATE.
    public var code: String?
    /// The stored row as the caller may see it; nil when no longer visible.
    public var row: JSON?

    public init(id: UUID, kind: Kind, code: String? = nil, row: JSON? = nil) {
        self.id = id
        self.kind = kind
        self.code = code
        self.row = row
    }

    public init(json: JSON) throws {
        guard let id = json["id"].uuid, let kind = json["outcome"].string.flatMap(Kind.init(rawValue:)) else {
            throw GridServerError.unexpected("a push outcome without id or outcome: \(json.text.prefix(200))")
        }
        self.init(id: id, kind: kind, code: json["code"].string, row: json["row"].isNull ? nil : json["row"])
    }
}

/// One page of a pull: rows in `(server_updated_at, id)` order (or by id, for a group).
public struct PullPage: Sendable {
    public var rows: [JSON]
    /// Where the next page starts; nil after the last page.
    public var next: (since: Timestamp?, afterID: UUID)?

    public init(rows: [JSON], next: (since: Timestamp?, afterID: UUID)?) {
        self.rows = rows
        self.next = next
    }

    public init(json: JSON) throws {
        guard let rows = json["rows"].array else {
            throw GridServerError.unexpected("a pull answer without rows: \(json.text.prefix(200))")
        }
        self.rows = rows
        if let after = json["next"]["after_id"].uuid {
            next = (json["next"]["since"].timestamp, after)
        } else {
            next = nil
        }
    }
}

/// A call to the server that did not succeed.
public enum GridServerError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The phone has no connection, or lost it: nothing was decided on the server.
    case transport(String)
    /// The server refused the call (P0001): a stable code and what to do.
    case refused(code: String, hint: String?)
    /// The database failed the call with this SQLSTATE.
    case database(sqlState: String, message: String)
    /// The answer was not what the protocol says.
    case unexpected(String)

    /// What a queue entry records as its last error (spec §6.2).
    public var code: String {
        switch self {
        case .transport: "transport"
        case .refused(let code, _): code
        case .database(let state, _): state
        case .unexpected: "unexpected_answer"
        }
    }

    public var description: String {
        switch self {
        case .transport(let message): "no connection to the server (\(message))"
        case .refused(let code, let hint): "the server refused: \(code)" + (hint.map { " (\($0))" } ?? "")
        case .database(let state, let message): "the server failed: \(message) (SQLSTATE \(state))"
        case .unexpected(let message): "the server answered something unexpected: \(message)"
        }
    }
}

/// The server side of the sync protocol, as one signed-in person calls it: the
/// RPCs of spec §6 and the photo objects of §1.4. Every method is one request.
public protocol GridServer: Sendable {
    /// The signed-in person.
    var user: UUID { get }
    /// `save_grid(p_grid)`: one template, answered `{grid, squares, status, …}`.
    func saveGrid(_ grid: JSON) async throws -> JSON
    /// `sync_push(p_table, p_rows)` once per batch (≤ 200 rows), pipelined; outcomes per batch.
    func push(_ table: SyncedTable, batches: [[JSON]]) async throws -> [[PushOutcome]]
    /// `sync_pull(p_table, p_since, p_after_id)`. `table` is a synced table or `group_unshares`.
    func pull(_ table: String, since: Timestamp?, afterID: UUID?) async throws -> PullPage
    /// `sync_pull_group(p_group_id, p_table, p_after_id)`: a group's live rows, for a group just joined.
    func pullGroup(_ group: UUID, _ table: SyncedTable, afterID: UUID?) async throws -> PullPage
    /// `my_groups()`: the groups the person is in now.
    func myGroups() async throws -> [UUID]
    /// Stores a photo's bytes at `path` in the photos bucket, then has the photo marked uploaded; answers the photo row.
    func uploadPhoto(_ photo: UUID, path: String, bytes: [UInt8]) async throws -> JSON?
    /// A photo's bytes, or nil when there is no object the person may read at `path`.
    func downloadPhoto(path: String) async throws -> [UInt8]?
}
