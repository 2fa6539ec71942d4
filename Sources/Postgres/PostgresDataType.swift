/// A PostgreSQL type, by its OID.
///
/// Parameters are sent as `.unspecified` unless the encoding needs a type
/// (binary bytea, jsonb): the server then infers each parameter's type from
/// its use, so `where id = $1` and `f(count => $1)` work whatever the column's
/// integer width, as they would in hand-written SQL.
public struct PostgresDataType: Hashable, Sendable, CustomStringConvertible {
    public let oid: UInt32

    public init(_ oid: UInt32) { self.oid = oid }

    public static let unspecified = PostgresDataType(0)
    public static let bool = PostgresDataType(16)
    public static let bytea = PostgresDataType(17)
    public static let name = PostgresDataType(19)
    public static let int8 = PostgresDataType(20)
    public static let int2 = PostgresDataType(21)
    public static let int4 = PostgresDataType(23)
    public static let text = PostgresDataType(25)
    public static let oidType = PostgresDataType(26)
    public static let json = PostgresDataType(114)
    public static let float4 = PostgresDataType(700)
    public static let float8 = PostgresDataType(701)
    public static let unknown = PostgresDataType(705)
    public static let varchar = PostgresDataType(1043)
    public static let date = PostgresDataType(1082)
    public static let timestamp = PostgresDataType(1114)
    public static let timestamptz = PostgresDataType(1184)
    public static let numeric = PostgresDataType(1700)
    public static let uuid = PostgresDataType(2950)
    public static let jsonb = PostgresDataType(3802)
    public static let void = PostgresDataType(2278)

    public static let boolArray = PostgresDataType(1000)
    public static let byteaArray = PostgresDataType(1001)
    public static let int2Array = PostgresDataType(1005)
    public static let int4Array = PostgresDataType(1007)
    public static let textArray = PostgresDataType(1009)
    public static let varcharArray = PostgresDataType(1015)
    public static let int8Array = PostgresDataType(1016)
    public static let float4Array = PostgresDataType(1021)
    public static let float8Array = PostgresDataType(1022)
    public static let timestampArray = PostgresDataType(1115)
    public static let timestamptzArray = PostgresDataType(1185)
    public static let uuidArray = PostgresDataType(2951)
    public static let jsonArray = PostgresDataType(199)
    public static let jsonbArray = PostgresDataType(3807)

    private static let arrayOfElement: [UInt32: UInt32] = [
        16: 1000, 17: 1001, 21: 1005, 23: 1007, 25: 1009, 1043: 1015, 20: 1016,
        700: 1021, 701: 1022, 1114: 1115, 1184: 1185, 2950: 2951, 114: 199, 3802: 3807,
    ]
    private static let elementOfArray: [UInt32: UInt32] = Dictionary(
        uniqueKeysWithValues: arrayOfElement.map { ($0.value, $0.key) })

    /// The array type whose elements are of this type, when it is a known one.
    public var arrayType: PostgresDataType {
        Self.arrayOfElement[oid].map(PostgresDataType.init) ?? .unspecified
    }

    /// The element type, when this is a known array type.
    public var elementType: PostgresDataType {
        Self.elementOfArray[oid].map(PostgresDataType.init) ?? .unspecified
    }

    public var isJSON: Bool { self == .json || self == .jsonb }

    public var description: String {
        switch self {
        case .bool: "boolean"
        case .bytea: "bytea"
        case .int2: "smallint"
        case .int4: "integer"
        case .int8: "bigint"
        case .text: "text"
        case .varchar: "varchar"
        case .json: "json"
        case .jsonb: "jsonb"
        case .float4: "real"
        case .float8: "double precision"
        case .date: "date"
        case .timestamp: "timestamp"
        case .timestamptz: "timestamptz"
        case .numeric: "numeric"
        case .uuid: "uuid"
        case .unspecified: "unspecified"
        default: "oid \(oid)"
        }
    }
}
