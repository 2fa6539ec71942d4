import Foundation
import Postgres

/// `POST /object/move` and `POST /object/copy` with `{bucketId, sourceKey,
/// destinationKey, destinationBucket?}`, as the caller: the source must be one the
/// caller can read, the destination one the caller may write (Summit's policies:
/// under one's own folder), and a destination bucket its size and type limits.
extension StorageService {
    /// From `bucket/source` to `destinationBucket/destination`.
    private struct Transfer {
        var bucket, source, destinationBucket, destination: String
    }

    /// The object's facts the destination's limits are checked against.
    private struct Source: Decodable {
        var size: Int
        var metadata: String
    }

    func move(_ request: HTTPRequest, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try Self.requireSignedIn(caller, "move")
        let body = try jsonObject(request, Self.transferShape)
        let transfer = try Self.transfer(body)
        if transfer.destinationBucket != transfer.bucket {
            let source = try await source(transfer, caller: caller)
            try await bucketLimits(transfer.destinationBucket)
                .check(size: source.size, mimeType: Self.mimeType(source.metadata), bucket: transfer.destinationBucket)
        }
        let rows = try await write("""
            update storage.objects
              set bucket_id = \(transfer.destinationBucket), name = \(transfer.destination),
                  owner = coalesce(\(caller.userID), owner), updated_at = now()
            where bucket_id = \(transfer.bucket) and name = \(transfer.source)
            returning id::text
            """, as: caller)
        guard let id = try? rows.first?.decode(String.self, at: 0) else {
            // Nothing moved: a source the caller can read but not change is theirs to know about.
            _ = try await source(transfer, caller: caller)
            throw StorageError.refusal(403, "Unauthorized",
                                       "you may move only objects under your own folder ({your user id}/…)", code: "AccessDenied")
        }
        return .json(200, object: ["message": "Successfully moved", "Id": id, "Key": transfer.destination])
    }

    /// Copies the bytes and their metadata (`copyMetadata: false` with `metadata`
    /// replaces cacheControl and mimetype); `x-upsert: true` replaces a destination.
    func copy(_ request: HTTPRequest, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        try Self.requireSignedIn(caller, "copy")
        let body = try jsonObject(request, Self.transferShape)
        let transfer = try Self.transfer(body)
        let source = try await source(transfer, caller: caller)
        var metadata = JSONText.parse(source.metadata) as? [String: Any] ?? [:]
        if let flag = body["copyMetadata"], !BucketLimits.isBoolean(flag) {
            throw StorageError.invalid("copyMetadata must be true or false")
        }
        if body["copyMetadata"] as? Bool == false, let given = body["metadata"] as? [String: Any] {
            for key in ["cacheControl", "mimetype"] {
                guard let value = given[key] else { continue }
                guard let text = value as? String, !text.isEmpty, text.utf8.count <= 200,
                      !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw StorageError.invalid("metadata.\(key) must be short text without control characters")
                }
                metadata[key] = key == "mimetype" ? text.lowercased() : text
            }
        }
        try await bucketLimits(transfer.destinationBucket)
            .check(size: source.size, mimeType: metadata["mimetype"] as? String ?? "", bucket: transfer.destinationBucket)
        let upsert = request.headers["x-upsert"]?.lowercased() == "true"
        let conflict = upsert ? """
            on conflict (bucket_id, name) do update
              set content = excluded.content, metadata = excluded.metadata, owner = excluded.owner, updated_at = now()
            """ : ""
        let rows = try await write("""
            insert into storage.objects (bucket_id, name, owner, metadata, content)
            select \(transfer.destinationBucket), \(transfer.destination), \(caller.userID), \(JSONText.serialize(metadata))::jsonb, o.content
            from storage.objects o
            where o.bucket_id = \(transfer.bucket) and o.name = \(transfer.source) and o.content is not null
            \(unsafeRaw: conflict)
            returning json_build_object('Id', id, 'Key', bucket_id || '/' || name, 'id', id, 'name', name, 'bucket_id', bucket_id,
                                        'owner', owner, 'metadata', metadata, 'created_at', created_at, 'updated_at', updated_at)::text
            """, as: caller)
        guard let json = try? rows.first?.decode(String.self, at: 0) else { throw StorageError.notFound }
        return .json(200, json)
    }

    /// The source as the caller sees it; 404 when the caller cannot read it.
    private func source(_ transfer: Transfer, caller: RequestCaller) async throws(Refusal) -> Source {
        let rows = try await read("""
            select coalesce((o.metadata ->> 'size')::bigint, octet_length(o.content)) as size, coalesce(o.metadata, '{}')::text as metadata
            from storage.objects o
            where o.bucket_id = \(transfer.bucket) and o.name = \(transfer.source) and o.content is not null
            """, reader: .caller(caller))
        guard let source = try? rows?.first(as: Source.self) else { throw StorageError.notFound }
        return source
    }

    private static let transferShape = #"{"bucketId": "…", "sourceKey": "…", "destinationKey": "…", "destinationBucket": "… (optional)"}"#

    private static func transfer(_ body: [String: Any]) throws(Refusal) -> Transfer {
        guard let bucket = body["bucketId"] as? String, let source = body["sourceKey"] as? String,
              let destination = body["destinationKey"] as? String else {
            throw StorageError.invalid("send \(transferShape)")
        }
        let destinationBucket = (body["destinationBucket"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? bucket
        try StorageNames.checkBucket(bucket)
        try StorageNames.checkBucket(destinationBucket)
        return Transfer(bucket: bucket, source: try StorageNames.checkObject(source), destinationBucket: destinationBucket,
                        destination: try StorageNames.checkObject(destination))
    }

    private static func mimeType(_ metadata: String) -> String {
        ((JSONText.parse(metadata) as? [String: Any])?["mimetype"] as? String) ?? ""
    }
}
