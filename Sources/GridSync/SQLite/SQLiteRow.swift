/// One result row: values by column name.
public struct SQLiteRow: Sendable {
    public let columns: [String]
    public let values: [SQLiteValue]

    public subscript(_ name: String) -> SQLiteValue {
        guard let index = columns.firstIndex(of: name) else { return .null }
        return values[index]
    }

    public subscript(_ index: Int) -> SQLiteValue { values[index] }
}
