/// How a column is kept on the phone and carried on the wire.
public enum ColumnKind: Sendable {
    /// Lower-case text on both sides.
    case uuid
    case text
    /// Microseconds (INTEGER) on the phone, ISO 8601 on the wire: exact, and ordered as numbers.
    case timestamp
    /// `2026-01-02`.
    case date
    case bool
    case int
    /// A JSON array kept as text on the phone (a template's prompts, a season's months).
    case array
}

/// One column of a synced table.
public struct ColumnSpec: Sendable {
    public let name: String
    public let kind: ColumnKind
    /// Sent by a push (spec §6.1's client-writable columns, plus the LWW stamps).
    public let pushed: Bool
    /// Kept on the phone only; neither pushed nor pulled.
    public let local: Bool

    init(_ name: String, _ kind: ColumnKind, pushed: Bool = false, local: Bool = false) {
        self.name = name
        self.kind = kind
        self.pushed = pushed
        self.local = local
    }
}

/// The tables a phone keeps in step with the server (spec §6.1), in the order
/// they are pushed and pulled: parents before children.
public enum SyncedTable: String, CaseIterable, Sendable, Hashable {
    case grids
    case profiles
    case profileInterests = "profile_interests"
    case userGrids = "user_grids"
    case userSquares = "user_squares"
    case moments
    case momentEntries = "moment_entries"
    case photos

    /// Pushed in this order: templates through `save_grid`, then one batch per table.
    public static let pushOrder: [SyncedTable] = [.grids, .profileInterests, .userGrids, .userSquares, .moments, .momentEntries, .photos]
    /// Pulled in this order (then `group_unshares`, which is applied rather than kept).
    public static let pullOrder: [SyncedTable] = [.grids, .profiles, .profileInterests, .userGrids, .userSquares, .moments, .momentEntries, .photos]
    /// What `sync_pull_group` fetches when a group is joined.
    public static let groupOrder: [SyncedTable] = [.grids, .userGrids, .userSquares, .moments, .momentEntries, .photos]

    public var columns: [ColumnSpec] {
        switch self {
        case .grids:
            [.init("kind", .text), .init("owner_id", .uuid), .init("starter_key", .text),
             .init("source_grid_id", .uuid, pushed: true), .init("title", .text, pushed: true),
             .init("description", .text, pushed: true), .init("color", .text, pushed: true),
             .init("theme", .text, pushed: true), .init("size", .int, pushed: true),
             .init("season_months", .array), .init("shared", .bool, pushed: true), .init("shared_at", .timestamp),
             .init("hidden_at", .timestamp), .init("squares", .array, pushed: true)] + Self.syncColumns(deletable: true)
        case .profiles:
            [.init("username", .text), .init("bio", .text), .init("avatar_path", .text), .init("onboarded_at", .timestamp),
             .init("sharing_suspended_at", .timestamp), .init("sharing_suspended_until", .timestamp),
             .init("created_at", .timestamp), .init("updated_at", .timestamp), .init("server_updated_at", .timestamp)]
        case .profileInterests:
            [.init("user_id", .uuid), .init("interest", .text, pushed: true)] + Self.syncColumns(deletable: true)
        case .userGrids:
            [.init("user_id", .uuid), .init("grid_id", .uuid, pushed: true), .init("group_id", .uuid),
             .init("audience", .text, pushed: true), .init("converted_at", .timestamp)] + Self.syncColumns(deletable: true)
        case .userSquares:
            [.init("user_grid_id", .uuid, pushed: true), .init("user_id", .uuid), .init("group_id", .uuid),
             .init("position", .int, pushed: true), .init("revealed_at", .timestamp, pushed: true),
             .init("freebie_at", .timestamp, pushed: true)] + Self.syncColumns(deletable: false)
        case .moments:
            [.init("user_square_id", .uuid, pushed: true), .init("user_grid_id", .uuid), .init("user_id", .uuid),
             .init("group_id", .uuid), .init("title", .text, pushed: true), .init("body", .text, pushed: true),
             .init("happened_on", .date, pushed: true), .init("place", .text, pushed: true),
             .init("weather", .text, pushed: true), .init("with_whom", .text, pushed: true),
             .init("audience", .text, pushed: true), .init("hidden_at", .timestamp), .init("merged_into", .uuid)]
                + Self.syncColumns(deletable: true)
        case .momentEntries:
            [.init("moment_id", .uuid, pushed: true), .init("author_id", .uuid), .init("group_id", .uuid),
             .init("body", .text, pushed: true), .init("audience", .text, pushed: true), .init("merged_into", .uuid)]
                + Self.syncColumns(deletable: true)
        case .photos:
            [.init("moment_id", .uuid, pushed: true), .init("user_id", .uuid), .init("group_id", .uuid),
             .init("storage_path", .text), .init("audience", .text, pushed: true), .init("sort", .int, pushed: true),
             .init("width", .int, pushed: true), .init("height", .int, pushed: true),
             .init("byte_size", .int, pushed: true), .init("uploaded_at", .timestamp),
             .init("local_path", .text, local: true)] + Self.syncColumns(deletable: true)
        }
    }

    /// The S-cols every synced table carries (spec §2.0). A square is never deleted
    /// by a phone (only by its board's cascade), so its `deleted` is not pushed.
    private static func syncColumns(deletable: Bool) -> [ColumnSpec] {
        [.init("created_at", .timestamp, pushed: true), .init("updated_at", .timestamp, pushed: true),
         .init("device_id", .uuid, pushed: true), .init("server_updated_at", .timestamp),
         .init("deleted", .bool, pushed: deletable)]
    }

    /// Does last-write-wins decide between copies of a row? (Profiles are written by RPCs only.)
    public var lastWriteWins: Bool { self != .profiles }

    /// Does each row carry the group it belongs to?
    public var groupScoped: Bool {
        [.userGrids, .userSquares, .moments, .momentEntries, .photos].contains(self)
    }

    /// Columns a pull writes: everything but the phone's own.
    public var syncedColumns: [ColumnSpec] { columns.filter { !$0.local } }

    public var pushedColumns: [ColumnSpec] { columns.filter(\.pushed) }
}
