/// Which storage operation a request is, read from its method and path exactly as
/// the platform's clients (storage3, storage-js) call them. Bucket and object names
/// are checked here, so every handler gets names that may reach the database.
enum StorageRoute: Equatable {
    // /bucket
    case listBuckets
    case createBucket
    case getBucket(String)
    case updateBucket(String)
    case deleteBucket(String)
    case emptyBucket(String)
    // /object
    case listObjects(bucket: String)
    case info(bucket: String, name: String, publicOnly: Bool)
    case signOne(bucket: String, name: String)
    case signMany(bucket: String)
    case signedDownload(bucket: String, name: String)
    case move
    case copy
    case upload(bucket: String, name: String, replacing: Bool)
    case download(bucket: String, name: String, publicOnly: Bool)
    case remove(bucket: String, name: String)
    case removeMany(bucket: String)

    /// Routes that carry their own credential (a signed token) or need none (public
    /// buckets), as the platform serves them: browsers fetch these without an API key.
    var needsCredentials: Bool {
        switch self {
        case .signedDownload, .download(_, _, publicOnly: true), .info(_, _, publicOnly: true): false
        default: true
        }
    }

    /// The route with each bucket name replaced by `map`'s.
    func rebucketed(_ map: (String) -> String) -> StorageRoute {
        switch self {
        case .listBuckets, .createBucket, .move, .copy: self
        case .getBucket(let id): .getBucket(map(id))
        case .updateBucket(let id): .updateBucket(map(id))
        case .deleteBucket(let id): .deleteBucket(map(id))
        case .emptyBucket(let id): .emptyBucket(map(id))
        case .listObjects(let bucket): .listObjects(bucket: map(bucket))
        case .info(let bucket, let name, let publicOnly): .info(bucket: map(bucket), name: name, publicOnly: publicOnly)
        case .signOne(let bucket, let name): .signOne(bucket: map(bucket), name: name)
        case .signMany(let bucket): .signMany(bucket: map(bucket))
        case .signedDownload(let bucket, let name): .signedDownload(bucket: map(bucket), name: name)
        case .upload(let bucket, let name, let replacing): .upload(bucket: map(bucket), name: name, replacing: replacing)
        case .download(let bucket, let name, let publicOnly): .download(bucket: map(bucket), name: name, publicOnly: publicOnly)
        case .remove(let bucket, let name): .remove(bucket: map(bucket), name: name)
        case .removeMany(let bucket): .removeMany(bucket: map(bucket))
        }
    }

    static func parse(_ method: HTTPMethod, _ path: [Substring]) throws(Refusal) -> StorageRoute {
        switch path.first {
        case "bucket": return try bucketRoute(method, Array(path.dropFirst()))
        case "object": return try objectRoute(method, Array(path.dropFirst()))
        default:
            throw StorageError.refusal(404, "not_found", "no such storage endpoint: Summit serves /storage/v1/bucket and /storage/v1/object/…")
        }
    }

    private static func bucketRoute(_ method: HTTPMethod, _ path: [Substring]) throws(Refusal) -> StorageRoute {
        // `/bucket/` (a trailing slash) is `/bucket`.
        let path = path.count == 1 && path[0].isEmpty ? [] : path
        let id = path.first.map(String.init) ?? ""
        if !path.isEmpty { try StorageNames.checkBucket(id) }
        switch (method, path.count) {
        case (.get, 0): return .listBuckets
        case (.post, 0): return .createBucket
        case (.get, 1): return .getBucket(id)
        case (.put, 1): return .updateBucket(id)
        case (.delete, 1): return .deleteBucket(id)
        case (.post, 2) where path[1] == "empty": return .emptyBucket(id)
        default:
            throw notAllowed(method, "/bucket: GET /bucket, POST /bucket, GET|PUT|DELETE /bucket/{id}, POST /bucket/{id}/empty")
        }
    }

    private static func objectRoute(_ method: HTTPMethod, _ path: [Substring]) throws(Refusal) -> StorageRoute {
        var parts = path
        guard let first = parts.first.map(String.init) else {
            throw StorageError.invalid("the path needs a bucket: /storage/v1/object/{bucket}/{path}")
        }
        switch first {
        case "move", "copy":
            guard method == .post, parts.count == 1 else { throw notAllowed(method, "/object/\(first): POST with {bucketId, sourceKey, destinationKey}") }
            return first == "move" ? .move : .copy
        case "list":
            guard method == .post, parts.count == 2 else { throw notAllowed(method, "/object/list: POST /object/list/{bucket}") }
            let bucket = String(parts[1])
            try StorageNames.checkBucket(bucket)
            return .listObjects(bucket: bucket)
        case "info":
            parts.removeFirst()
            var publicOnly = false
            if let mode = parts.first, mode == "authenticated" || mode == "public" {
                publicOnly = mode == "public"
                parts.removeFirst()
            }
            let (bucket, name) = try bucketAndName(parts)
            guard method == .get, let name else { throw notAllowed(method, "/object/info: GET /object/info/{bucket}/{path}") }
            return .info(bucket: bucket, name: name, publicOnly: publicOnly)
        case "sign":
            let (bucket, name) = try bucketAndName(Array(parts.dropFirst()))
            switch (method, name) {
            case (.post, nil): return .signMany(bucket: bucket)
            case (.post, let name?): return .signOne(bucket: bucket, name: name)
            case (.get, let name?), (.head, let name?): return .signedDownload(bucket: bucket, name: name)
            default: throw notAllowed(method, "/object/sign: POST /object/sign/{bucket}[/{path}], GET /object/sign/{bucket}/{path}?token=")
            }
        case "upload":
            throw StorageError.refusal(501, "not_implemented",
                                       "Summit does not serve signed upload URLs: upload with POST /object/{bucket}/{path} and the user's own token")
        case "list-v2":
            throw StorageError.refusal(501, "not_implemented", "Summit does not serve list-v2: list with POST /object/list/{bucket} (list())")
        case "authenticated", "public":
            let (bucket, name) = try bucketAndName(Array(parts.dropFirst()))
            guard method == .get || method == .head, let name else {
                throw notAllowed(method, "/object/\(first): GET or HEAD /object/\(first)/{bucket}/{path}")
            }
            return .download(bucket: bucket, name: name, publicOnly: first == "public")
        default:
            let (bucket, name) = try bucketAndName(parts)
            switch (method, name) {
            case (.delete, nil): return .removeMany(bucket: bucket)
            case (.post, let name?): return .upload(bucket: bucket, name: name, replacing: false)
            case (.put, let name?): return .upload(bucket: bucket, name: name, replacing: true)
            case (.get, let name?), (.head, let name?): return .download(bucket: bucket, name: name, publicOnly: false)
            case (.delete, let name?): return .remove(bucket: bucket, name: name)
            case (_, nil): throw StorageError.invalid("the path needs an object name after the bucket: /object/\(bucket)/{path}")
            default: throw notAllowed(method, "/object/{bucket}/{path}: POST, PUT, GET, HEAD or DELETE")
            }
        }
    }

    /// The bucket (checked) and the object name after it (checked; nil when there is none).
    private static func bucketAndName(_ parts: [Substring]) throws(Refusal) -> (String, String?) {
        guard let bucket = parts.first.map(String.init), !bucket.isEmpty else {
            throw StorageError.invalid("the path needs a bucket: /storage/v1/object/…/{bucket}/{path}")
        }
        try StorageNames.checkBucket(bucket)
        let name = parts.dropFirst().joined(separator: "/")
        return (bucket, name.isEmpty && parts.count <= 1 ? nil : try StorageNames.checkObject(name))
    }

    private static func notAllowed(_ method: HTTPMethod, _ served: String) -> Refusal {
        StorageError.refusal(405, "InvalidRequest", "\(method.rawValue) is not served here; Summit serves \(served)")
    }
}
