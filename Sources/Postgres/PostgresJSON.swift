import Foundation
import JSONDepth

/// A Codable value stored as `jsonb` (or read from `json`).
///
/// Dates travel as ISO 8601 with microseconds, the shape `to_jsonb(timestamptz)` produces.
public struct PostgresJSON<Value: Codable & Sendable>: PostgresEncodable, PostgresDecodable, Sendable {
    public var value: Value

    public init(_ value: Value) { self.value = value }

    public static var postgresDataType: PostgresDataType { .jsonb }

    public var postgresValue: PostgresValue {
        // Encoding a Codable value the caller built can only fail for non-finite floats;
        // sending NULL then would lose data silently, so it is a programming error.
        guard let data = try? PostgresJSONCoding.encoder.encode(value) else {
            preconditionFailure("\(Value.self) is not representable as JSON (a NaN or infinite number?)")
        }
        return .text(String(decoding: data, as: UTF8.self), type: .jsonb)
    }

    public init(postgresCell cell: PostgresCell) throws {
        let bytes = try cell.nonNull(Value.self)
        do {
            value = try PostgresJSONCoding.decode(Value.self, from: bytes)
        } catch {
            throw cell.failure(Value.self, "JSON does not match: \(error)")
        }
    }
}

/// The JSON coders every JSON column and field shares.
public enum PostgresJSONCoding {
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(PostgresTimestamp.format(date))
        }
        return encoder
    }

    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = PostgresTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a timestamp: \(text)")
            }
            return date
        }
        return decoder
    }

    /// A JSON value or field as `T`, through `decoder`. A document nested deeper
    /// than `JSONDepth.limit` is refused as `JSONTooDeep`, which says so (JSONDecoder
    /// itself would say only that the data is not valid JSON).
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        try JSONDepth.check(bytes)
        return try decoder.decode(T.self, from: Data(bytes))
    }
}
