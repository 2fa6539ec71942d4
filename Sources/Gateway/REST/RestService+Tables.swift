import Foundation
import Postgres

/// `/rest/v1/{table}`: reads (GET, HEAD), inserts and upserts (POST), updates
/// (PATCH) and deletes (DELETE).
extension RestService {
    func table(_ request: HTTPRequest, target: TableTarget, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        guard let items = request.queryItems else { throw PostgRESTError.parse("the query string's percent-encoding is broken") }
        let query = try TableQuery(items)
        let preferences = Preferences(request.headers)
        let media = try media(of: request)
        switch request.method {
        case .get, .head:
            return try await read(request, target: target, query: query, preferences: preferences, media: media, caller: caller)
        case .post:
            return try await insert(request, target: target, query: query, preferences: preferences, media: media, caller: caller)
        case .patch:
            try requireFilters(query, "UPDATE")
            let (body, columns) = try object(request.body)
            guard !columns.isEmpty else { throw PostgRESTError.refusal(400, "PGRST102", "Empty or invalid json: PATCH needs an object of columns to set") }
            try await requireColumns(columns, of: target, caller: caller)
            let node = try await returning(query, target: target, preferences: preferences, caller: caller)
            let statement = query.updateStatement(target, body: body, columns: columns, returning: node, format: media.body)
            return try await mutation(statement, media: media, preferences: preferences, caller: caller, kind: .update)
        case .delete:
            try requireFilters(query, "DELETE")
            let node = try await returning(query, target: target, preferences: preferences, caller: caller)
            return try await mutation(query.deleteStatement(target, returning: node, format: media.body), media: media,
                                      preferences: preferences, caller: caller, kind: .delete)
        case .put, .options:
            throw PostgRESTError.refusal(405, "PGRST117", "\(request.method.rawValue) is not supported on tables by Summit",
                                         hint: "use POST with Prefer: resolution=merge-duplicates to upsert")
        }
    }

    private func read(_ request: HTTPRequest, target: TableTarget, query: TableQuery, preferences: Preferences,
                      media: ResponseMedia, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let (limit, offset) = try page(request, query)
        let root = try await plan(query, source: target.qualified, alias: target.table, table: (target.schema, target.table), caller: caller)
        var builder = SQLBuilder()
        let sql = ReadStatement.statement(root, prelude: nil, body: media.body, exactTotal: preferences.exactCount,
                                          limit: limit, offset: offset, &builder)
        var planned: PostgresQuery?
        if preferences.count == .planned {
            var countBuilder = SQLBuilder()
            planned = countBuilder.query(ReadStatement.plannedCount(root, prelude: nil, &countBuilder))
        }
        let lagTolerant = context.reads?.serves(relation: target.schema, target.table, caller: caller, now: context.clock()) ?? false
        let row = try await run(builder.query(sql), planned: planned, media: media, caller: caller, route: lagTolerant ? .lagTolerant : .primary)
        return try readResponse(row, media: media, start: offset ?? 0)
    }

    private func insert(_ request: HTTPRequest, target: TableTarget, query: TableQuery, preferences: Preferences,
                        media: ResponseMedia, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        guard let parsed = JSONText.parse(request.body) else {
            throw PostgRESTError.refusal(400, "PGRST102", "Empty or invalid json", hint: "send a JSON object or an array of objects")
        }
        let rows: [[String: Any]]
        if let object = parsed as? [String: Any] {
            rows = [object]
        } else if let array = parsed as? [Any], let objects = array as? [[String: Any]] {
            rows = objects
        } else {
            throw PostgRESTError.refusal(400, "PGRST102", "Empty or invalid json", hint: "send a JSON object or an array of objects")
        }
        let keys = rows.reduce(into: [String]()) { keys, row in
            for key in row.keys.sorted() where !keys.contains(key) { keys.append(key) }
        }
        let columns = query.columns ?? keys
        for column in columns { _ = try Identifier.check(column, "columns") }
        try await requireColumns(columns, of: target, caller: caller)
        let returning = preferences.returning == .representation
        guard !columns.isEmpty, !rows.isEmpty else {
            return .json(201, returning ? "[]" : "", headers: ["content-range": Self.contentRange(lower: 1, upper: 0, total: preferences.wantsCount ? 0 : nil)])
        }
        var conflict: [String]?
        if preferences.resolution != nil {
            if let onConflict = query.onConflict {
                conflict = onConflict
            } else {
                do {
                    conflict = try await schemas.primaryKey(schema: target.schema, table: target.table)
                } catch {
                    throw Refusal(PostgRESTError.from(error, role: caller.role))
                }
                guard conflict?.isEmpty == false else {
                    throw PostgRESTError.refusal(400, "PGRST100", "\(target.table) has no primary key to upsert on",
                                                 hint: "name the unique columns with on_conflict=")
                }
            }
        }
        var handedToTrigger = false
        if conflict != nil {
            do {
                handedToTrigger = try await schemas.insertsThroughTrigger(schema: target.schema, table: target.table)
            } catch {
                throw Refusal(PostgRESTError.from(error, role: caller.role))
            }
        }
        let node = try await self.returning(query, target: target, preferences: preferences, caller: caller)
        let statement = query.insertStatement(target, body: JSONText.serialize(rows), columns: columns, conflict: conflict,
                                              resolution: preferences.resolution, handedToTrigger: handedToTrigger,
                                              returning: node, format: media.body)
        return try await mutation(statement, media: media, preferences: preferences, caller: caller, kind: .insert)
    }

    /// The read-back of the changed rows when `return=representation` asks for them.
    private func returning(_ query: TableQuery, target: TableTarget, preferences: Preferences,
                           caller: RequestCaller) async throws(Refusal) -> ReadNode? {
        guard preferences.returning == .representation else {
            guard query.embedded.isEmpty else {
                throw PostgRESTError.parse("filters on embedded resources need Prefer: return=representation")
            }
            return nil
        }
        var readBack = query
        readBack.root = TableQuery.Modifiers()
        let node = try await plan(readBack, source: "summit_mutation", alias: target.table, table: (target.schema, target.table), caller: caller)
        return query.returningNode(target, resolved: node)
    }

    enum MutationKind { case insert, update, delete }

    /// Runs a change and answers as PostgREST does: `Content-Range` `*/n` for inserts and
    /// deletes, `0-(n-1)/n` for updates (the total only with `Prefer: count`).
    private func mutation(_ statement: PostgresQuery, media: ResponseMedia, preferences: Preferences, caller: RequestCaller,
                          kind: MutationKind) async throws(Refusal) -> HTTPResponse {
        if case .plan = media {
            throw PostgRESTError.refusal(406, "PGRST107", "Summit serves query plans for reads (GET, HEAD and functions) only")
        }
        let row = try await run(statement, media: media, caller: caller, route: .write)
        let total = preferences.wantsCount ? row.count : nil
        var headers = HTTPHeaders()
        headers.set("content-range", kind == .update ? Self.contentRange(lower: 0, upper: row.count - 1, total: total)
                                                     : Self.contentRange(lower: 1, upper: 0, total: total))
        let status = kind == .insert ? 201 : 200
        if preferences.returning == .representation {
            // An insert answered as one object is still 201 Created, as PostgREST answers it.
            if media.isSingle { return try singleObject(row.body, count: row.count, headers: headers, status: status) }
            return Self.body(status, row.body, media: media, headers: headers)
        }
        return HTTPResponse(status: kind == .insert ? 201 : 204, headers: headers)
    }

    /// Every column written must be the table's (PostgREST's PGRST204), checked before the
    /// statement so PostgreSQL's message (and its guesses at internal names) never answers instead.
    private func requireColumns(_ columns: [String], of target: TableTarget, caller: RequestCaller) async throws(Refusal) {
        let known: [String]
        do {
            known = try await schemas.columns(schema: target.schema, table: target.table)
        } catch {
            throw Refusal(PostgRESTError.from(error, role: caller.role))
        }
        // No columns: no such table (or none visible), which the statement itself reports as 42P01.
        guard !known.isEmpty, let missing = columns.first(where: { !known.contains($0) }) else { return }
        throw PostgRESTError.refusal(400, "PGRST204", "Could not find the '\(missing)' column of '\(target.table)' in the schema cache")
    }

    private func requireFilters(_ query: TableQuery, _ verb: String) throws(Refusal) {
        guard !query.root.conditions.isEmpty else {
            throw PostgRESTError.refusal(400, "21000", "\(verb) requires a WHERE clause",
                                         hint: "add a filter such as ?id=eq.… (Summit refuses whole-table changes)")
        }
        guard query.limit == nil, query.order.isEmpty else {
            throw PostgRESTError.parse("limit and order apply to reads only in Summit", hint: "filter the rows to change instead")
        }
    }

    /// A JSON object's text and its keys (columns to set).
    private func object(_ body: [UInt8]) throws(Refusal) -> (String, [String]) {
        guard let object = JSONText.parse(body) as? [String: Any] else {
            throw PostgRESTError.refusal(400, "PGRST102", "Empty or invalid json", hint: "send one JSON object of the columns to set")
        }
        let columns = object.keys.sorted()
        for column in columns { _ = try Identifier.check(column, "columns") }
        return (String(decoding: body, as: UTF8.self), columns)
    }
}
