import Foundation

/// A row the server's JSON could not be read into.
public struct RowShapeError: Error, Sendable, CustomStringConvertible {
    public var table: SyncedTable
    public var problem: String
    public var description: String { "a \(table.rawValue) row from the server: \(problem)" }
}

/// One row of a synced table as the phone keeps it: column values by name,
/// stored the way SQLite holds them (see `ColumnKind`).
public struct SyncRow: Sendable, Hashable {
    public let table: SyncedTable
    public let id: UUID
    public var values: [String: SQLiteValue]

    public init(table: SyncedTable, id: UUID, values: [String: SQLiteValue] = [:]) {
        self.table = table
        self.id = id
        self.values = values
    }

    /// A row as the server sends it (a pull, a push answer): unknown keys are
    /// ignored, missing ones read as null.
    public init(table: SyncedTable, json: JSON) throws {
        guard let id = json["id"].uuid else { throw RowShapeError(table: table, problem: "no id in \(json.text.prefix(120))") }
        self.table = table
        self.id = id
        values = [:]
        for column in table.syncedColumns {
            values[column.name] = try Self.stored(json[column.name], as: column.kind, column: column.name, table: table)
        }
    }

    public subscript(_ name: String) -> SQLiteValue {
        get { values[name] ?? .null }
        set { values[name] = newValue }
    }

    public func uuid(_ name: String) -> UUID? { self[name].text.flatMap(UUID.init(uuidString:)) }
    public func text(_ name: String) -> String? { self[name].text }
    public func int(_ name: String) -> Int? { self[name].int }
    public func bool(_ name: String) -> Bool { self[name].bool ?? false }
    public func timestamp(_ name: String) -> Timestamp? { self[name].integer.map(Timestamp.init(microseconds:)) }

    public mutating func set(_ name: String, _ value: some SQLiteBindable) { values[name] = value.sqliteValue }
    public mutating func set(_ name: String, uuid: UUID?) { values[name] = uuid.map { .text($0.lowercased) } ?? .null }
    public mutating func set(_ name: String, timestamp: Timestamp?) { values[name] = timestamp.map { .integer($0.microseconds) } ?? .null }

    public var deleted: Bool { bool("deleted") }
    public var groupID: UUID? { uuid("group_id") }
    public var serverUpdatedAt: Timestamp? { timestamp("server_updated_at") }

    public var writeKey: WriteKey {
        WriteKey(updatedAt: timestamp("updated_at") ?? Timestamp(microseconds: .min),
                 deviceID: text("device_id") ?? DeterministicID.serverDevice.lowercased)
    }

    /// What a push sends: the id and the client-writable columns, as they are now.
    public var pushJSON: JSON {
        var fields: [String: JSON] = ["id": .string(id.lowercased)]
        for column in table.pushedColumns { fields[column.name] = Self.wire(self[column.name], as: column.kind) }
        return .object(fields)
    }

    /// Every synced column as the server would send it: for comparing a phone with the server.
    public var syncedJSON: JSON {
        var fields: [String: JSON] = ["id": .string(id.lowercased)]
        for column in table.syncedColumns { fields[column.name] = Self.wire(self[column.name], as: column.kind) }
        return .object(fields)
    }

    static func stored(_ value: JSON, as kind: ColumnKind, column: String, table: SyncedTable) throws -> SQLiteValue {
        if value.isNull { return .null }
        func bad() -> RowShapeError { RowShapeError(table: table, problem: "\(column) = \(value.text) is not a \(kind)") }
        switch kind {
        case .uuid:
            guard let id = value.uuid else { throw bad() }
            return .text(id.lowercased)
        case .text, .date:
            guard let text = value.string else { throw bad() }
            return .text(text)
        case .timestamp:
            guard let time = value.timestamp else { throw bad() }
            return .integer(time.microseconds)
        case .bool:
            guard let flag = value.bool else { throw bad() }
            return .integer(flag ? 1 : 0)
        case .int:
            guard let number = value.int else { throw bad() }
            return .integer(Int64(number))
        case .array:
            guard value.array != nil else { throw bad() }
            return .text(value.text)
        }
    }

    static func wire(_ value: SQLiteValue, as kind: ColumnKind) -> JSON {
        switch (kind, value) {
        case (_, .null): .null
        case (.timestamp, .integer(let micros)): .string(Timestamp(microseconds: micros).iso)
        case (.bool, .integer(let flag)): .bool(flag != 0)
        case (.int, .integer(let number)): .integer(number)
        case (.array, .text(let text)): (try? JSON(parsing: text)) ?? .null
        case (_, .text(let text)): .string(text)
        case (_, .integer(let number)): .integer(number)
        case (_, .real(let number)): .number(number)
        case (_, .blob): .null
        }
    }
}
