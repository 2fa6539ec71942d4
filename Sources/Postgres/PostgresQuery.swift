/// SQL text with its parameters, built so that values can never become SQL.
///
/// Interpolated values become `$1`, `$2`, …:
///
///     try await db.query("select * from social.profiles where id = \(userID)")
///
/// Identifiers (which can't be parameters) go through `\(identifier: name)`,
/// which quotes them. SQL assembled at run time from trusted pieces (migration
/// files, generated statements) uses `init(unsafeSQL:binds:)`, whose name says
/// the caller vouches for it.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public var sql: String
    public var binds: [PostgresValue]

    public init(unsafeSQL sql: String, binds: [any PostgresEncodable] = []) {
        self.sql = sql
        self.binds = binds.map(\.postgresValue)
    }

    public init(stringLiteral value: String) {
        sql = value
        binds = []
    }

    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        binds = stringInterpolation.binds
    }

    public var description: String { sql }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [PostgresValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// A parameter: `$n` in the text, the value beside it.
        public mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(value.postgresValue)
            sql += "$\(binds.count)"
        }

        /// An optional parameter: NULL when nil.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            binds.append(value.postgresValue)
            sql += "$\(binds.count)"
        }

        /// A quoted identifier: `"name"`, safe whatever the name holds.
        public mutating func appendInterpolation(identifier: String) {
            sql += PostgresQuery.quoteIdentifier(identifier)
        }

        /// SQL text inserted as is. Only for text the program itself chose.
        public mutating func appendInterpolation(unsafeRaw text: String) {
            sql += text
        }
    }

    /// `"name"` with inner quotes doubled, as PostgreSQL's quote_ident does.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `'text'` with inner quotes doubled: a standard-conforming string literal.
    public static func quoteLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
