import Digest
import Foundation
import Postgres

/// Upload, download and delete one object (or many), as the caller.
extension StorageService {
    // MARK: - Upload

    func upload(_ request: HTTPRequest, bucket: String, name: String, caller: RequestCaller,
                replacing: Bool) async throws(Refusal) -> HTTPResponse {
        try Self.requireSignedIn(caller, "upload")
        // The file: a multipart form's `file` part, or the body itself.
        var bytes = request.body
        var contentType = request.headers["content-type"] ?? "application/octet-stream"
        var cacheControl = request.headers["cache-control"] ?? "max-age=3600"
        if let boundary = MultipartForm.boundary(in: contentType) {
            guard let form = MultipartForm(request.body, boundary: boundary), let file = form.part(named: "file")
                    ?? form.parts.first(where: { $0.filename != nil }) else {
                throw StorageError.invalid("the multipart body has no file part: send the file in a part named file")
            }
            bytes = file.body
            contentType = file.contentType ?? "application/octet-stream"
            if let value = form.part(named: "cacheControl").map({ String(decoding: $0.body, as: UTF8.self) }), !value.isEmpty {
                cacheControl = value.allSatisfy(\.isNumber) ? "max-age=\(value)" : value
            }
        }
        let mimeType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        try await bucketLimits(bucket).check(size: bytes.count, mimeType: mimeType, bucket: bucket)
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
        let rows = try await write(statement, as: caller)
        if replacing && rows.rowsAffected == 0 {
            throw StorageError.refusal(404, "not_found", "Object not found: upload it with POST first", code: "NoSuchKey")
        }
        return .json(200, object: ["Key": "\(bucket)/\(name)", "Id": id.uuidString.lowercased()])
    }

    /// Anonymous callers write nothing (they hold no write privilege at all): said plainly.
    static func requireSignedIn(_ caller: RequestCaller, _ verb: String) throws(Refusal) {
        guard caller.role != "anon" else {
            throw StorageError.refusal(403, "Unauthorized", "sign in to \(verb): anonymous callers cannot store files", code: "AccessDenied")
        }
    }

    /// A write as `caller`, its refusals in storage's words: `duplicate` for a unique
    /// violation, `foreignKey` for a row whose bucket is missing (or still in use).
    func write(_ statement: PostgresQuery, as caller: RequestCaller, duplicate: Refusal = StorageError.duplicate,
               foreignKey: Refusal? = nil) async throws(Refusal) -> PostgresRows {
        do {
            return try await context.query(statement, as: caller)
        } catch let error as PostgresError where error.code == .uniqueViolation {
            throw duplicate
        } catch let error as PostgresError where error.code == .insufficientPrivilege {
            throw StorageError.writeRefused
        } catch let error as PostgresError where error.code == .foreignKeyViolation {
            throw foreignKey ?? StorageError.refusal(404, "Bucket not found", "Bucket not found: create it first (POST /storage/v1/bucket)",
                                                     code: "NoSuchBucket")
        } catch let error as PostgresError where error.code.errorClass == "23" || error.code.errorClass == "22" {
            throw StorageError.invalid(error.message)
        } catch {
            throw StorageError.databaseFailure(error)
        }
    }

    // MARK: - Download

    func download(_ request: HTTPRequest, bucket: String, name: String, reader: StorageReader) async throws(Refusal) -> HTTPResponse {
        let statement: PostgresQuery = """
            select o.content, coalesce(o.metadata ->> 'mimetype', 'application/octet-stream') as mimetype,
                   coalesce(o.metadata ->> 'cacheControl', 'no-cache') as cache_control,
                   to_char(o.updated_at at time zone 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"') as modified
            from storage.objects o
            where o.bucket_id = \(bucket) and o.name = \(name) and o.content is not null\(unsafeRaw: reader.condition)
            """
        guard let row = try await read(statement, reader: reader)?.first else { throw StorageError.notFound }
        do {
            let content = try row.decode(Data.self, at: 0)
            var headers = HTTPHeaders()
            headers.set("content-type", try row.decode(String.self, at: 1))
            headers.set("cache-control", try row.decode(String.self, at: 2))
            headers.set("last-modified", try row.decode(String.self, at: 3))
            headers.set("etag", "\"" + SHA256.hex(Array(content)).prefix(32) + "\"")
            if let download = request.queryItems?.first(where: { $0.name == "download" }) {
                headers.set("content-disposition", Self.attachment(download.value.isEmpty ? String(name.split(separator: "/").last ?? "") : download.value))
            }
            return HTTPResponse(status: 200, headers: headers, body: Array(content))
        } catch {
            throw StorageError.databaseFailure(error)
        }
    }

    /// A statement through `reader`'s eyes; nil when the caller may not make it at
    /// all (no privilege), which callers answer as if nothing were there.
    func read(_ statement: PostgresQuery, reader: StorageReader) async throws(Refusal) -> PostgresRows? {
        do {
            switch reader {
            case .caller(let caller): return try await context.query(statement, as: caller)
            // Public files need no policy: the service role reads them, the statement limited to public buckets.
            case .publicBucket: return try await context.queryAsService(statement)
            }
        } catch let error as PostgresError where error.code == .insufficientPrivilege {
            return nil
        } catch {
            throw StorageError.databaseFailure(error)
        }
    }

    /// `Content-Disposition: attachment`, the filename made safe for a header
    /// (the ASCII fallback without quotes or controls, the exact name percent-encoded).
    static func attachment(_ filename: String) -> String {
        let fallback = String(filename.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }
            .map(Character.init))
        return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(StorageNames.percentEncode(filename))"
    }

    // MARK: - Delete

    func remove(bucket: String, name: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let rows = try await read("delete from storage.objects where bucket_id = \(bucket) and name = \(name)", reader: .caller(caller))
        guard let rows, rows.rowsAffected > 0 else { throw StorageError.notFound }
        return .json(200, object: ["message": "Successfully deleted"])
    }

    /// `DELETE /object/{bucket}` with `{"prefixes": [names]}`: the objects removed (those the caller may remove).
    func removeMany(_ request: HTTPRequest, bucket: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let body = try jsonObject(request, #"{"prefixes": [object names]}"#)
        guard let names = body["prefixes"] as? [String], (1...1000).contains(names.count) else {
            throw StorageError.invalid(#"send {"prefixes": [object names]} (1 to 1000 names)"#)
        }
        let checked = try names.map { name throws(Refusal) in try StorageNames.checkObject(name) }
        let rows = try await read("""
            with removed as (
              delete from storage.objects where bucket_id = \(bucket) and name = any(\(checked))
              returning id, bucket_id, name, owner, metadata, created_at, updated_at)
            select coalesce(json_agg(removed), '[]')::text from removed
            """, reader: .caller(caller))
        return .json(200, (try? rows?.first?.decode(String.self, at: 0)) ?? "[]")
    }
}
