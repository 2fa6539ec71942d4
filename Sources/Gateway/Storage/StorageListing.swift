import Foundation
import Postgres

/// What a caller can see of a bucket without downloading: `POST /object/list/{bucket}`
/// (one folder level, as the platform's `storage.search` answers) and
/// `GET /object/info/…` (one object's facts, which storage3's `exists()` reads).
/// Both read through the caller's eyes, so they show exactly what downloads would.
extension StorageService {
    /// The sort columns the platform takes; `last_accessed_at` is accepted and, as
    /// Summit does not record reads, sorts like `name`.
    private static let sortColumns: Set<String> = ["name", "updated_at", "created_at", "last_accessed_at"]

    /// `{prefix, limit, offset, sortBy: {column, order}, search}`: the folders and
    /// files directly under `prefix` whose names start with `search` (ignoring case),
    /// folders as entries with a null id, names relative to the prefix.
    func listObjects(_ request: HTTPRequest, bucket: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let body = try jsonObject(request, #"{"prefix": "folder", "limit": 100, "offset": 0, "sortBy": {"column": "name", "order": "asc"}, "search": ""}"#)
        guard let prefixText = (body["prefix"] ?? "") as? String else { throw StorageError.invalid("prefix must be a folder path (text)") }
        let prefix = try StorageNames.checkFolder(prefixText)
        let limit = try Self.integer(body["limit"], "limit", default: 100, in: 1...1000)
        let offset = try Self.integer(body["offset"], "offset", default: 0, in: 0...1_000_000)
        guard let search = (body["search"] ?? "") as? String, search.utf8.count <= 1024,
              !search.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw StorageError.invalid("search must be text (the start of the names to list), at most 1024 bytes, no control characters")
        }
        let sortBy = body["sortBy"] as? [String: Any] ?? [:]
        let column = (sortBy["column"] as? String ?? "name").lowercased()
        let order = (sortBy["order"] as? String ?? "asc").lowercased()
        guard Self.sortColumns.contains(column), order == "asc" || order == "desc" else {
            throw StorageError.invalid("sortBy is {column: name, updated_at, created_at or last_accessed_at; order: asc or desc}")
        }
        _ = try await bucketLimits(bucket)  // a missing bucket is 404, not an empty list

        // Names split at /: the entry is the token range from the prefix's depth to the search's.
        let start = prefix.split(separator: "/", omittingEmptySubsequences: false).count
        let depth = (prefix + search).split(separator: "/", omittingEmptySubsequences: false).count
        let pattern = Self.likeEscaped((prefix + search).lowercased()) + "%"
        // Constant SQL chosen from the checked column and order above.
        let ordering = column == "name" || column == "last_accessed_at"
            ? "lower(name) collate \"C\" \(order), name collate \"C\""
            : "folder desc, case when folder then lower(name) end collate \"C\" \(order), \(column) \(order), name collate \"C\""
        let rows = try await read("""
            with visible as (
              select o.id, o.name, o.created_at, o.updated_at, o.metadata, string_to_array(o.name, '/') as tokens
              from storage.objects o
              where o.bucket_id = \(bucket) and lower(o.name) like \(pattern) escape '\\'),
            entries as (
              select array_to_string(tokens[\(start):\(depth)], '/') as name, null::uuid as id, null::timestamptz as updated_at,
                     null::timestamptz as created_at, null::jsonb as metadata, true as folder
              from visible where cardinality(tokens) > \(depth) group by 1
              union all
              select array_to_string(tokens[\(start):\(depth)], '/'), id, updated_at, created_at, metadata, false
              from visible where cardinality(tokens) = \(depth)),
            numbered as (select *, row_number() over (order by \(unsafeRaw: ordering)) as n from entries)
            select coalesce(json_agg(json_build_object('name', name, 'id', id, 'updated_at', updated_at, 'created_at', created_at,
                                                       'last_accessed_at', null, 'metadata', metadata) order by n), '[]')::text
            from numbered where n > \(offset) and n <= \(offset + limit)
            """, reader: .caller(caller))
        return .json(200, (try? rows?.first?.decode(String.self, at: 0)) ?? "[]")
    }

    /// `GET /object/info/[authenticated/|public/]{bucket}/{path}`: the object's facts in
    /// the platform's shape, its ETag, Last-Modified and Cache-Control as headers.
    func info(bucket: String, name: String, reader: StorageReader) async throws(Refusal) -> HTTPResponse {
        let statement: PostgresQuery = """
            select json_build_object('id', o.id, 'name', o.name, 'version', null, 'bucket_id', o.bucket_id,
                     'size', coalesce((o.metadata ->> 'size')::bigint, octet_length(o.content)),
                     'content_type', coalesce(o.metadata ->> 'mimetype', 'application/octet-stream'),
                     'cache_control', o.metadata ->> 'cacheControl', 'etag', o.metadata ->> 'eTag', 'metadata', null,
                     'last_modified', o.updated_at, 'created_at', o.created_at)::text,
                   coalesce(o.metadata ->> 'eTag', ''), coalesce(o.metadata ->> 'cacheControl', 'no-cache'),
                   to_char(o.updated_at at time zone 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"')
            from storage.objects o
            where o.bucket_id = \(bucket) and o.name = \(name)\(unsafeRaw: reader.condition)
            """
        guard let row = try await read(statement, reader: reader)?.first else { throw StorageError.notFound }
        do {
            var headers = HTTPHeaders()
            let etag = try row.decode(String.self, at: 1)
            if !etag.isEmpty { headers.set("etag", etag) }
            headers.set("cache-control", try row.decode(String.self, at: 2))
            headers.set("last-modified", try row.decode(String.self, at: 3))
            return .json(200, try row.decode(String.self, at: 0), headers: headers)
        } catch {
            throw StorageError.databaseFailure(error)
        }
    }

    /// An integer field of a body (JSON number or numeric text, as storage3 sends
    /// some), within `range`.
    static func integer(_ value: Any?, _ field: String, default fallback: Int, in range: ClosedRange<Int>) throws(Refusal) -> Int {
        guard let value, !(value is NSNull) else { return fallback }
        var number: Int?
        if let text = value as? String {
            number = Int(text.trimmingCharacters(in: .whitespaces))
        } else if let value = value as? NSNumber, !BucketLimits.isBoolean(value), value.doubleValue == value.doubleValue.rounded(),
                  abs(value.doubleValue) < 1e15 {
            number = value.intValue
        }
        guard let number, range.contains(number) else {
            throw StorageError.invalid("\(field) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// `text` matched literally by LIKE (escape `\`).
    static func likeEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
