import Digest
import Foundation
import Postgres

/// `/storage/v1/object`: upload, download and delete files kept in
/// `storage.objects`, every statement as the caller, so the policies there decide:
/// a photo is readable exactly while its moment is, an avatar while its profile is.
/// A read the caller may not make answers 404, as if the file were not there.
struct StorageService: Sendable {
    let context: GatewayContext

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        do {
            let caller: RequestCaller
            do {
                caller = try context.credentials.caller(of: request, now: context.clock())
            } catch {
                throw Self.refusal(error.isExpired ? 400 : 403, error.isExpired ? "InvalidJWT" : "Unauthorized", error.message)
            }
            var parts = Array(path)
            guard parts.first == "object" else {
                if parts.first == "bucket" { return try await buckets(caller) }
                throw Self.refusal(404, "not_found", "Summit serves /storage/v1/object/{bucket}/{path} and /storage/v1/bucket")
            }
            parts.removeFirst()
            var mode = "object"
            if let first = parts.first, first == "authenticated" || first == "public" {
                mode = String(first)
                parts.removeFirst()
            }
            guard let bucket = parts.first.map(String.init) else {
                throw Self.refusal(400, "InvalidRequest", "the path needs a bucket: /storage/v1/object/{bucket}/{path}")
            }
            try Self.checkBucketName(bucket)
            let objectName = parts.dropFirst().joined(separator: "/")
            switch (request.method, objectName.isEmpty, mode) {
            case (.delete, true, "object"):
                return try await removeMany(request, bucket: bucket, caller: caller)
            case (_, true, _):
                throw Self.refusal(400, "InvalidRequest", "the path needs an object name after the bucket")
            case (.post, false, "object"):
                return try await upload(request, bucket: bucket, name: try Self.checkObjectName(objectName), caller: caller, replacing: false)
            case (.put, false, "object"):
                return try await upload(request, bucket: bucket, name: try Self.checkObjectName(objectName), caller: caller, replacing: true)
            case (.get, false, _), (.head, false, _):
                return try await download(bucket: bucket, name: try Self.checkObjectName(objectName), caller: caller, publicOnly: mode == "public")
            case (.delete, false, "object"):
                return try await remove(bucket: bucket, name: try Self.checkObjectName(objectName), caller: caller)
            default:
                throw Self.refusal(405, "InvalidRequest", "\(request.method.rawValue) is not allowed here")
            }
        } catch let refusal as Refusal {
            return refusal.response
        } catch {
            return Self.databaseFailure(error).response
        }
    }

    // MARK: - Upload

    private struct Bucket: Decodable {
        var isPublic: Bool
        var fileSizeLimit: Int?
        var allowedMimeTypes: String?
    }

    private func upload(_ request: HTTPRequest, bucket: String, name: String, caller: RequestCaller,
                        replacing: Bool) async throws(Refusal) -> HTTPResponse {
        guard caller.role != "anon" else {
            throw Self.refusal(403, "Unauthorized", "sign in to upload: anonymous callers cannot store files")
        }
        // The file: a multipart form's `file` part, or the body itself.
        var bytes = request.body
        var contentType = request.headers["content-type"] ?? "application/octet-stream"
        var cacheControl = request.headers["cache-control"] ?? "max-age=3600"
        if let boundary = MultipartForm.boundary(in: contentType) {
            guard let form = MultipartForm(request.body, boundary: boundary), let file = form.part(named: "file")
                    ?? form.parts.first(where: { $0.filename != nil }) else {
                throw Self.refusal(400, "InvalidRequest", "the multipart body has no file part: send the file in a part named file")
            }
            bytes = file.body
            contentType = file.contentType ?? "application/octet-stream"
            if let value = form.part(named: "cacheControl").map({ String(decoding: $0.body, as: UTF8.self) }), !value.isEmpty {
                cacheControl = value.allSatisfy(\.isNumber) ? "max-age=\(value)" : value
            }
        }
        let limits = try await bucketRow(bucket, caller: caller)
        if let limit = limits.fileSizeLimit, bytes.count > limit {
            throw Self.refusal(413, "Payload too large", "The object exceeded the maximum allowed size (\(limit) bytes for \(bucket))")
        }
        let mimeType = contentType.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
        if let allowed = limits.allowedMimeTypes.flatMap({ JSONText.parse($0) as? [String] }), !allowed.isEmpty,
           !allowed.contains(where: { $0 == mimeType || ($0.hasSuffix("/*") && mimeType.hasPrefix($0.dropLast())) }) {
            throw Self.refusal(415, "invalid_mime_type",
                               "mime type \(mimeType) is not supported: \(bucket) takes \(allowed.joined(separator: ", "))")
        }
        let id = UUID()
        let metadata = JSONText.serialize([
            "mimetype": mimeType, "size": bytes.count, "cacheControl": cacheControl,
            "eTag": "\"" + SHA256.hex(bytes).prefix(32) + "\"", "contentLength": bytes.count,
        ] as [String: Any])
        let upsert = request.headers["x-upsert"]?.lowercased() == "true"
        let owner = caller.userID
        let statement: PostgresQuery
        if replacing {
            statement = """
                update storage.objects set content = \(Data(bytes)), metadata = \(metadata)::jsonb, owner = \(owner), updated_at = now()
                where bucket_id = \(bucket) and name = \(name)
                """
        } else if upsert {
            statement = """
                insert into storage.objects (id, bucket_id, name, owner, metadata, content)
                values (\(id), \(bucket), \(name), \(owner), \(metadata)::jsonb, \(Data(bytes)))
                on conflict (bucket_id, name) do update
                  set content = excluded.content, metadata = excluded.metadata, owner = excluded.owner, updated_at = now()
                """
        } else {
            statement = """
                insert into storage.objects (id, bucket_id, name, owner, metadata, content)
                values (\(id), \(bucket), \(name), \(owner), \(metadata)::jsonb, \(Data(bytes)))
                """
        }
        let rows: PostgresRows
        do {
            rows = try await context.query(statement, as: caller)
        } catch let error as PostgresError where error.code == "23505" {
            throw Self.refusal(409, "Duplicate", "The resource already exists: send x-upsert: true to replace it")
        } catch let error as PostgresError where error.code == "42501" {
            throw Self.refusal(403, "Unauthorized", "new row violates row-level security policy: upload under your own folder ({your user id}/…)")
        } catch let error as PostgresError where error.code.errorClass == "23" || error.code.errorClass == "22" {
            throw Self.refusal(400, "InvalidRequest", error.message)
        } catch {
            throw Self.databaseFailure(error)
        }
        if replacing && rows.rowsAffected == 0 {
            throw Self.refusal(404, "not_found", "Object not found: upload it with POST first")
        }
        return .json(200, object: ["Key": "\(bucket)/\(name)", "Id": id.uuidString.lowercased()])
    }

    private func bucketRow(_ bucket: String, caller: RequestCaller) async throws(Refusal) -> Bucket {
        let rows: [Bucket]
        do {
            rows = try await context.query("""
                select public as is_public, file_size_limit, array_to_json(allowed_mime_types)::text as allowed_mime_types
                from storage.buckets where id = \(bucket)
                """, as: caller).decode(Bucket.self)
        } catch {
            throw Self.databaseFailure(error)
        }
        guard let row = rows.first else { throw Self.refusal(404, "not_found", "Bucket not found: \(bucket)") }
        return row
    }

    // MARK: - Download and delete

    private func download(bucket: String, name: String, caller: RequestCaller, publicOnly: Bool) async throws(Refusal) -> HTTPResponse {
        let statement: PostgresQuery = """
            select o.content, coalesce(o.metadata ->> 'mimetype', 'application/octet-stream') as mimetype,
                   coalesce(o.metadata ->> 'cacheControl', 'no-cache') as cache_control,
                   to_char(o.updated_at at time zone 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"') as modified
            from storage.objects o
            where o.bucket_id = \(bucket) and o.name = \(name)
              and (not \(publicOnly) or exists (select 1 from storage.buckets b where b.id = o.bucket_id and b.public))
            """
        let rows: PostgresRows
        do {
            // Public files need no policy: the service role reads them, only from public buckets.
            rows = publicOnly ? try await context.pool.withConnection { try await $0.query(statement, as: .serviceRole) }
                              : try await context.query(statement, as: caller)
        } catch let error as PostgresError where error.code == "42501" {
            // Not allowed to read at all: the same answer as a file that is not there.
            throw Self.notFound
        } catch {
            throw Self.databaseFailure(error)
        }
        guard let row = rows.first else { throw Self.notFound }
        do {
            let content = try row.decode(Data.self, at: 0)
            var headers = HTTPHeaders()
            headers.set("content-type", try row.decode(String.self, at: 1))
            headers.set("cache-control", try row.decode(String.self, at: 2))
            headers.set("last-modified", try row.decode(String.self, at: 3))
            headers.set("etag", "\"" + SHA256.hex(Array(content)).prefix(32) + "\"")
            return HTTPResponse(status: 200, headers: headers, body: Array(content))
        } catch {
            throw Self.databaseFailure(error)
        }
    }

    private func remove(bucket: String, name: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let rows: PostgresRows
        do {
            rows = try await context.query("delete from storage.objects where bucket_id = \(bucket) and name = \(name)", as: caller)
        } catch let error as PostgresError where error.code == "42501" {
            throw Self.notFound
        } catch {
            throw Self.databaseFailure(error)
        }
        guard rows.rowsAffected > 0 else { throw Self.notFound }
        return .json(200, object: ["message": "Successfully deleted"])
    }

    /// `DELETE /object/{bucket}` with `{"prefixes": [names]}`: the objects removed (those the caller may remove).
    private func removeMany(_ request: HTTPRequest, bucket: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        guard let body = JSONText.parse(request.body) as? [String: Any], let names = body["prefixes"] as? [String],
              names.count <= 1000 else {
            throw Self.refusal(400, "InvalidRequest", "send {\"prefixes\": [object names]} (at most 1000)")
        }
        let checked = try names.map { name throws(Refusal) in try Self.checkObjectName(name) }
        do {
            let json = try await context.query("""
                with removed as (
                  delete from storage.objects where bucket_id = \(bucket) and name = any(\(checked))
                  returning id, bucket_id, name, owner, metadata, created_at, updated_at)
                select coalesce(json_agg(removed), '[]')::text from removed
                """, as: caller).scalar(String.self)
            return .json(200, json)
        } catch let error as PostgresError where error.code == "42501" {
            return .json(200, "[]")
        } catch {
            throw Self.databaseFailure(error)
        }
    }

    private func buckets(_ caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        do {
            let json = try await context.query("""
                select coalesce(json_agg(json_build_object('id', id, 'name', coalesce(name, id), 'public', public,
                  'file_size_limit', file_size_limit, 'allowed_mime_types', allowed_mime_types, 'created_at', created_at,
                  'updated_at', created_at, 'owner', '') order by id), '[]')::text
                from storage.buckets
                """, as: caller).scalar(String.self)
            return .json(200, json)
        } catch let error as PostgresError where error.code == "42501" {
            return .json(200, "[]")
        } catch {
            throw Self.databaseFailure(error)
        }
    }

    // MARK: - Names and errors

    static func checkBucketName(_ name: String) throws(Refusal) {
        guard (1...63).contains(name.utf8.count),
              name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }) else {
            throw refusal(400, "InvalidBucketName", "bucket names are 1–63 lowercase letters, digits, - and _")
        }
    }

    /// Slash-separated, no empty, `.` or `..` segments, no control characters, at most 1024 bytes.
    static func checkObjectName(_ name: String) throws(Refusal) -> String {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard name.utf8.count <= 1024, !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw refusal(400, "InvalidKey", "Invalid key: \(name.prefix(80)): names are /-separated segments, none empty, . or ..")
        }
        return name
    }

    static let notFound = refusal(404, "not_found", "Object not found")

    /// The storage service's error shape.
    static func refusal(_ status: Int, _ error: String, _ message: String) -> Refusal {
        Refusal(.json(status, object: ["statusCode": String(status), "error": error, "message": message]))
    }

    static func databaseFailure(_ error: any Error) -> Refusal {
        if let error = error as? PostgresError, error.isConnectionFailure {
            return refusal(503, "DatabaseError", "the database is not reachable; retry shortly")
        }
        return refusal(500, "InternalError", "the file could not be stored or read: \(error)")
    }
}

extension CredentialProblem {
    var isExpired: Bool {
        if case .badToken(.expired) = self { return true }
        return false
    }
}
