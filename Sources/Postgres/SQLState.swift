/// A five-character SQLSTATE code, as PostgreSQL reports it.
///
/// Matching on codes rather than message text keeps callers working across
/// server versions and locales: `catch let error as PostgresError where error.code == .uniqueViolation`.
public struct SQLState: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The two-character class, e.g. `23` for integrity constraint violations.
    public var errorClass: Substring { rawValue.prefix(2) }

    public var description: String { rawValue }

    public static let successfulCompletion: SQLState = "00000"
    // Class 08: connection exceptions.
    public static let connectionException: SQLState = "08000"
    public static let connectionDoesNotExist: SQLState = "08003"
    public static let connectionFailure: SQLState = "08006"
    public static let unableToConnect: SQLState = "08001"
    // Class 22: data exceptions.
    public static let invalidTextRepresentation: SQLState = "22P02"
    public static let numericValueOutOfRange: SQLState = "22003"
    public static let characterNotInRepertoire: SQLState = "22021"
    public static let invalidParameterValue: SQLState = "22023"
    // Class 23: integrity constraint violations.
    public static let notNullViolation: SQLState = "23502"
    public static let foreignKeyViolation: SQLState = "23503"
    public static let uniqueViolation: SQLState = "23505"
    public static let checkViolation: SQLState = "23514"
    public static let exclusionViolation: SQLState = "23P01"
    // Class 25 and 40: transactions.
    public static let inFailedSQLTransaction: SQLState = "25P02"
    public static let serializationFailure: SQLState = "40001"
    public static let deadlockDetected: SQLState = "40P01"
    // Class 42: syntax and access rules.
    public static let insufficientPrivilege: SQLState = "42501"
    public static let syntaxError: SQLState = "42601"
    public static let undefinedColumn: SQLState = "42703"
    public static let undefinedFunction: SQLState = "42883"
    public static let undefinedTable: SQLState = "42P01"
    public static let undefinedObject: SQLState = "42704"
    public static let duplicateObject: SQLState = "42710"
    // Class 57: operator intervention.
    public static let queryCanceled: SQLState = "57014"
    public static let adminShutdown: SQLState = "57P01"
    // Class P0: PL/pgSQL. `raise exception` without an explicit errcode gives P0001.
    public static let raiseException: SQLState = "P0001"
    public static let noDataFound: SQLState = "P0002"
    public static let tooManyRows: SQLState = "P0003"

    public static func ~= (pattern: SQLState, error: any Error) -> Bool {
        (error as? PostgresError)?.code == pattern
    }
}
