import Foundation
import Postgres

/// `/storage/v1/bucket`: get, list, create, update, empty and delete buckets, for
/// the service role only. Buckets are the backend's setup (migrations make the
/// apps' own), so anyone else is refused with 403 before anything is read or
/// written, and no verb answers 200 without having done what it says.
extension StorageService {
    /// The columns of a bucket as the platform's clients parse them (storage3's
    /// `BaseBucket` requires every one; `owner` is text there, and Summit's buckets
    /// belong to no user).
    private static let bucketJSON = """
        json_build_object('id', id, 'name', coalesce(name, id), 'owner', '', 'public', public,
          'file_size_limit', file_size_limit, 'allowed_mime_types', allowed_mime_types, 'type', 'STANDARD',
          'created_at', created_at, 'updated_at', updated_at)
        """

    private func requireServiceRole(_ caller: RequestCaller, _ verb: String) throws(Refusal) {
        guard caller.isServiceRole else {
            throw StorageError.refusal(403, "Unauthorized",
                                       "\(verb) takes the service role key: buckets are the backend's to manage; "
                                           + "apps read and write objects under /storage/v1/object/{bucket}/…", code: "AccessDenied")
        }
    }

    func listBuckets(_ caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try requireServiceRole(caller, "listing buckets")
        let rows = try await write("""
            select coalesce(json_agg(\(unsafeRaw: Self.bucketJSON) order by id), '[]')::text from storage.buckets
            """, as: caller)
        return .json(200, (try? rows.first?.decode(String.self, at: 0)) ?? "[]")
    }

    func getBucket(_ id: String, _ caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try requireServiceRole(caller, "reading a bucket")
        let rows = try await write("select \(unsafeRaw: Self.bucketJSON)::text from storage.buckets where id = \(id)", as: caller)
        guard let json = try? rows.first?.decode(String.self, at: 0) else { throw StorageError.bucketNotFound(id) }
        return .json(200, json)
    }

    /// `POST /bucket` with `{id, name, public, file_size_limit, allowed_mime_types}`; answers `{name}`.
    func createBucket(_ request: HTTPRequest, _ caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try requireServiceRole(caller, "creating a bucket")
        let body = try jsonObject(request, #"{"id": "…", "name": "…", "public": false, "file_size_limit": …, "allowed_mime_types": […]}"#)
        guard let name = (body["name"] as? String) ?? (body["id"] as? String) else {
            throw StorageError.invalid(#"name the bucket: {"name": "…"} (and "id", which defaults to the name)"#)
        }
        let id = (body["id"] as? String) ?? name
        try StorageNames.checkBucket(id)
        try StorageNames.checkBucket(name)
        guard !StorageNames.reservedBuckets.contains(id) else {
            throw StorageError.refusal(400, "Invalid Input",
                                       "Bucket name invalid: \(id) is a storage route (\(StorageNames.reservedBuckets.sorted().joined(separator: ", "))): choose another",
                                       code: "InvalidBucketName")
        }
        let settings = try settings(from: body)
        _ = try await write("""
            insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
            values (\(id), \(name), \(settings.isPublic ?? false), \(settings.fileSizeLimit ?? nil), \(settings.allowedMimeTypes ?? nil))
            """, as: caller, duplicate: StorageError.refusal(409, "Duplicate", "The resource already exists: bucket \(id) is there already",
                                                            code: "BucketAlreadyExists"))
        return .json(200, object: ["name": name])
    }

    /// `PUT /bucket/{id}` with any of `public`, `file_size_limit`, `allowed_mime_types` (null clears a limit).
    func updateBucket(_ id: String, _ request: HTTPRequest, _ caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try requireServiceRole(caller, "updating a bucket")
        let settings = try settings(from: try jsonObject(request, #"{"public": …, "file_size_limit": …, "allowed_mime_types": […]}"#))
        guard settings.isPublic != nil || settings.fileSizeLimit != nil || settings.allowedMimeTypes != nil else {
            throw StorageError.invalid("No content provided: send public, file_size_limit or allowed_mime_types")
        }
        let rows = try await write("""
            update storage.buckets set
              public = coalesce(\(settings.isPublic), public),
              file_size_limit = case when \(settings.fileSizeLimit != nil) then \(settings.fileSizeLimit ?? nil) else file_size_limit end,
              allowed_mime_types = case when \(settings.allowedMimeTypes != nil) then \(settings.allowedMimeTypes ?? nil)
                                        else allowed_mime_types end,
              updated_at = now()
            where id = \(id)
            """, as: caller)
        guard rows.rowsAffected > 0 else { throw StorageError.bucketNotFound(id) }
        return .json(200, object: ["message": "Successfully updated"])
    }

    /// `POST /bucket/{id}/empty`: every object of the bucket deleted, at once.
    func emptyBucket(_ id: String, _ caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try requireServiceRole(caller, "emptying a bucket")
        let rows = try await write("""
            with bucket as (select id from storage.buckets where id = \(id)),
                 removed as (delete from storage.objects o using bucket where o.bucket_id = bucket.id returning 1)
            select (select count(*) from bucket) as buckets, (select count(*) from removed) as removed
            """, as: caller)
        guard (try? rows.first?.decode(Int.self, at: 0)) == 1 else { throw StorageError.bucketNotFound(id) }
        return .json(200, object: ["message": "Successfully emptied"])
    }

    /// `DELETE /bucket/{id}`: only an empty bucket (its objects would lose their bucket).
    func deleteBucket(_ id: String, _ caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try requireServiceRole(caller, "deleting a bucket")
        let rows = try await write("delete from storage.buckets where id = \(id)", as: caller,
                                   foreignKey: StorageError.refusal(409, "InvalidRequest",
                                       "The bucket you tried to delete is not empty: empty it first (POST /storage/v1/bucket/\(id)/empty)",
                                       code: "ResourceNotEmpty"))
        guard rows.rowsAffected > 0 else { throw StorageError.bucketNotFound(id) }
        return .json(200, object: ["message": "Successfully deleted"])
    }

    /// The settings a create or update body names; nil for those it leaves out
    /// (`.some(nil)` for a limit it clears with null).
    private func settings(from body: [String: Any]) throws(Refusal) -> (isPublic: Bool?, fileSizeLimit: Int??, allowedMimeTypes: [String]??) {
        var isPublic: Bool?
        if let value = body["public"] {
            guard BucketLimits.isBoolean(value), let flag = value as? Bool else { throw StorageError.invalid("public must be true or false") }
            isPublic = flag
        }
        var size: Int??
        if let value = body["file_size_limit"] {
            size = value is NSNull ? .some(nil) : .some(try BucketLimits.parseSize(value, maximum: context.configuration.maxUploadBytes))
        }
        var types: [String]??
        if let value = body["allowed_mime_types"] { types = .some(try BucketLimits.parseMimeTypes(value)) }
        return (isPublic, size, types)
    }
}
