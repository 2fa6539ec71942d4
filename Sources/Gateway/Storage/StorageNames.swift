/// The names storage accepts, checked before anything reaches the database, and
/// how they are written back into URLs.
enum StorageNames {
    /// Path words after `/object/` that are routes, not buckets: a bucket named so
    /// could never be reached, so none may be created.
    static let reservedBuckets: Set<String> = ["authenticated", "public", "info", "list", "list-v2", "sign", "upload", "move", "copy"]

    static func checkBucket(_ name: String) throws(Refusal) {
        guard (1...63).contains(name.utf8.count),
              name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }) else {
            throw StorageError.refusal(400, "Invalid Input",
                                       "Bucket name invalid: \(name.prefix(80).debugDescription): bucket names are 1–63 lowercase letters, digits, - and _",
                                       code: "InvalidBucketName")
        }
    }

    /// Slash-separated, no empty, `.` or `..` segments, no control characters (NUL
    /// included), at most 1024 bytes: what reaches `storage.objects.name`.
    static func checkObject(_ name: String) throws(Refusal) -> String {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 1024, !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw StorageError.refusal(400, "InvalidKey",
                                       "Invalid key: \(name.prefix(80).debugDescription): names are /-separated segments, none empty, . or .., "
                                           + "without control characters, at most 1024 bytes")
        }
        return name
    }

    /// A list prefix: a folder path, so the same rules, but empty is the bucket's top
    /// and a trailing `/` is allowed. Returned with the trailing `/` the search needs.
    static func checkFolder(_ prefix: String) throws(Refusal) -> String {
        guard !prefix.isEmpty else { return "" }
        let folder = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        return try checkObject(folder) + "/"
    }

    /// `bucket/name` with every segment percent-encoded (RFC 3986 unreserved kept),
    /// so a name with `?`, `#` or spaces survives as one path.
    static func urlPath(bucket: String, name: String) -> String {
        ([bucket] + name.split(separator: "/").map(String.init)).map(percentEncode).joined(separator: "/")
    }

    static func percentEncode(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            let unreserved = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)
                || byte == 45 || byte == 46 || byte == 95 || byte == 126
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}
