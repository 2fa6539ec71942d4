import Foundation
import Postgres

/// A bucket's size and type limits: read before every write into it (uploads,
/// moves and copies across buckets), and read from the bodies that set them.
struct BucketLimits: Sendable {
    var fileSizeLimit: Int?
    var allowedMimeTypes: [String]?

    /// Refuses a file of `size` bytes and type `mimeType` that `bucket` does not take.
    func check(size: Int, mimeType: String, bucket: String) throws(Refusal) {
        if let limit = fileSizeLimit, size > limit {
            throw StorageError.refusal(413, "Payload too large",
                                       "The object exceeded the maximum allowed size (\(limit) bytes for \(bucket))", code: "EntityTooLarge")
        }
        if let allowed = allowedMimeTypes, !allowed.isEmpty,
           !allowed.contains(where: { $0 == mimeType || ($0.hasSuffix("/*") && mimeType.hasPrefix($0.dropLast())) }) {
            throw StorageError.refusal(415, "invalid_mime_type",
                                       "mime type \(mimeType) is not supported: \(bucket) takes \(allowed.joined(separator: ", "))",
                                       code: "InvalidMimeType")
        }
    }

    /// `file_size_limit` as the platform takes it: bytes as a number, or text such
    /// as `"20MB"` (B, KB, MB, GB, powers of 1024); at most what the gateway accepts.
    static func parseSize(_ value: Any, maximum: Int) throws(Refusal) -> Int {
        var bytes: Int?
        if let number = value as? NSNumber, !Self.isBoolean(number) {
            bytes = number.doubleValue == Double(number.intValue) ? number.intValue : nil
        } else if let text = (value as? String)?.trimmingCharacters(in: .whitespaces).uppercased() {
            let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
            let unit = units.first { text.hasSuffix($0.0) }
            let digits = unit.map { String(text.dropLast($0.0.count)).trimmingCharacters(in: .whitespaces) } ?? text
            if let amount = Int(digits), !digits.isEmpty {
                bytes = amount.multipliedReportingOverflow(by: unit?.1 ?? 1).overflow ? nil : amount * (unit?.1 ?? 1)
            }
        }
        guard let bytes, bytes > 0 else {
            throw StorageError.invalid("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B, or a number of bytes above 0")
        }
        guard bytes <= maximum else {
            throw StorageError.invalid("file_size_limit \(bytes) is more than the gateway accepts for an upload (\(maximum) bytes): choose at most that")
        }
        return bytes
    }

    /// JSON `true`/`false` arrive as NSNumbers too; their type code tells them from numbers.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// `allowed_mime_types`: `type/subtype` or `type/*` each; none (or empty) takes any.
    static func parseMimeTypes(_ value: Any) throws(Refusal) -> [String]? {
        if value is NSNull { return nil }
        guard let list = value as? [String], list.count <= 100 else {
            throw StorageError.invalid("allowed_mime_types must be a list of at most 100 types such as image/webp or image/*")
        }
        let types = list.filter { !$0.isEmpty }.map { $0.lowercased() }
        let token = "[a-z0-9][a-z0-9!#$&^_.+-]{0,126}"
        for type in types where type.range(of: "^\(token)/(\(token)|\\*)$", options: .regularExpression) == nil {
            throw StorageError.invalid("allowed_mime_types: \(type.prefix(80).debugDescription) is not a mime type such as image/webp or image/*")
        }
        return types.isEmpty ? nil : types
    }
}

extension StorageService {
    /// The limits of `bucket` (404 when there is no such bucket). Bucket settings are
    /// no secret: read by the service role, whoever writes.
    func bucketLimits(_ bucket: String) async throws(Refusal) -> BucketLimits {
        struct Row: Decodable {
            var fileSizeLimit: Int?
            var allowedMimeTypes: String?
        }
        let rows: [Row]
        do {
            rows = try await context.queryAsService("""
                select file_size_limit, array_to_json(allowed_mime_types)::text as allowed_mime_types
                from storage.buckets where id = \(bucket)
                """).decode(Row.self)
        } catch {
            throw StorageError.databaseFailure(error)
        }
        guard let row = rows.first else { throw StorageError.bucketNotFound(bucket) }
        return BucketLimits(fileSizeLimit: row.fileSizeLimit,
                            allowedMimeTypes: row.allowedMimeTypes.flatMap { JSONText.parse($0) as? [String] })
    }
}
