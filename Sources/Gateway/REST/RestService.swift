import Foundation
import Postgres

/// `/rest/v1`: tables and functions the way PostgREST serves them, every statement
/// run as the caller (role and claims for its transaction), so row level security
/// decides what each request sees and changes.
struct RestService: Sendable {
    let context: GatewayContext
    let schemas: SchemaCache

    init(context: GatewayContext) {
        self.context = context
        schemas = SchemaCache(pool: context.pool)
    }

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        do {
            let caller: RequestCaller
            do {
                caller = try context.credentials.caller(of: request, now: context.clock())
            } catch .missingAPIKey {
                throw PostgRESTError.refusal(401, "PGRST000", "No API key found in request",
                                             hint: "No `apikey` request header or url param was found.")
            } catch .unknownAPIKey {
                throw PostgRESTError.refusal(401, "PGRST000", "Invalid API key",
                                             hint: "Double check the apikey header: it must be the anon or service role key")
            } catch .badToken(.expired) {
                throw PostgRESTError.refusal(401, "PGRST303", "JWT expired", hint: "Refresh the session and retry with its new access token")
            } catch .badToken(let failure) {
                throw PostgRESTError.refusal(401, "PGRST301", "\(failure)", hint: "Sign in again for a valid access token")
            }
            let schema = try profile(of: request)
            let parts = Array(path)
            switch parts.count {
            case 1 where !parts[0].isEmpty:
                return try await table(request, target: TableTarget(schema: schema, table: String(parts[0])), caller: caller)
            case 2 where parts[0] == "rpc" && !parts[1].isEmpty:
                return try await call(request, schema: schema, name: String(parts[1]), caller: caller)
            default:
                throw PostgRESTError.refusal(404, "PGRST125", "Invalid path: use /rest/v1/{table} or /rest/v1/rpc/{function}")
            }
        } catch let refusal as Refusal {
            return refusal.response
        } catch {
            return PostgRESTError.from(error, role: "anon")
        }
    }

    /// The schema named by `Accept-Profile` (reads) or `Content-Profile` (writes), if exposed.
    private func profile(of request: HTTPRequest) throws(Refusal) -> String {
        let exposed = context.configuration.exposedSchemas
        let header = [.get, .head].contains(request.method) ? "accept-profile" : "content-profile"
        guard let requested = request.headers[header] else { return exposed[0] }
        guard exposed.contains(requested) else {
            throw PostgRESTError.refusal(406, "PGRST106", "Invalid schema: \(requested)",
                                         hint: "Only the following schemas are exposed: \(exposed.joined(separator: ", "))")
        }
        return requested
    }

    // MARK: - Tables

    private func table(_ request: HTTPRequest, target: TableTarget, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        guard let items = request.queryItems else { throw PostgRESTError.parse("the query string's percent-encoding is broken") }
        let query = try TableQuery(items)
        let preferences = Preferences(request.headers)
        let single = try wantsSingleObject(request)
        switch request.method {
        case .get, .head:
            return try await read(request, target: target, query: query, preferences: preferences, single: single, caller: caller)
        case .post:
            return try await insert(request, target: target, query: query, preferences: preferences, single: single, caller: caller)
        case .patch:
            try requireFilters(query, "UPDATE")
            let (body, columns) = try object(request.body)
            guard !columns.isEmpty else { throw PostgRESTError.refusal(400, "PGRST102", "Empty or invalid json: PATCH needs an object of columns to set") }
            let returning = preferences.returning == .representation
            let statement = query.updateStatement(target, body: body, columns: columns, returning: returning)
            return try await mutation(statement, caller: caller, returning: returning, created: false, single: single)
        case .delete:
            try requireFilters(query, "DELETE")
            let returning = preferences.returning == .representation
            return try await mutation(query.deleteStatement(target, returning: returning), caller: caller,
                                      returning: returning, created: false, single: single)
        case .put, .options:
            throw PostgRESTError.refusal(405, "PGRST117", "\(request.method.rawValue) is not supported on tables by Summit",
                                         hint: "use POST with Prefer: resolution=merge-duplicates to upsert")
        }
    }

    private func read(_ request: HTTPRequest, target: TableTarget, query: TableQuery, preferences: Preferences,
                      single: Bool, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        var limit = query.limit
        var offset = query.offset
        if let range = request.headers["range"] {
            let (from, to) = try Self.range(range)
            offset = max(offset ?? 0, from)
            if let to { limit = min(limit ?? Int.max, to - from + 1) }
        }
        let statement = query.readStatement(target, limit: limit, offset: offset, withTotal: preferences.wantsCount)
        let row = try await run(statement, caller: caller)
        let (json, returned) = (row.json, row.count)
        let total = row.total
        var headers = HTTPHeaders()
        let start = offset ?? 0
        let rangeText = returned == 0 ? "*" : "\(start)-\(start + returned - 1)"
        headers.set("content-range", rangeText + "/" + (total.map(String.init) ?? "*"))
        if single { return try singleObject(json, count: returned, headers: headers) }
        if let total, returned == 0, start > 0, start >= total, total > 0 {
            throw PostgRESTError.refusal(416, "PGRST103", "Requested range not satisfiable",
                                         details: "An offset of \(start) was requested, but there are only \(total) rows.")
        }
        let partial = request.headers["range"] != nil && total.map { returned < $0 } == true
        return .json(partial ? 206 : 200, json, headers: headers)
    }

    private func insert(_ request: HTTPRequest, target: TableTarget, query: TableQuery, preferences: Preferences,
                        single: Bool, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
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
        for column in columns { _ = try TableQuery.columnName(column, context: "columns") }
        let returning = preferences.returning == .representation
        guard !columns.isEmpty, !rows.isEmpty else {
            return .json(201, returning ? "[]" : "", headers: ["content-range": "*/*"])
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
        let statement = query.insertStatement(target, body: JSONText.serialize(rows), columns: columns, conflict: conflict,
                                              resolution: preferences.resolution, returning: returning)
        return try await mutation(statement, caller: caller, returning: returning, created: true, single: single)
    }

    private func mutation(_ statement: PostgresQuery, caller: RequestCaller, returning: Bool, created: Bool,
                          single: Bool) async throws(Refusal) -> HTTPResponse {
        let row = try await run(statement, caller: caller)
        var headers = HTTPHeaders()
        headers.set("content-range", row.count == 0 ? "*/*" : "0-\(row.count - 1)/*")
        if returning {
            if single { return try singleObject(row.json, count: row.count, headers: headers) }
            return .json(created ? 201 : 200, row.json, headers: headers)
        }
        return HTTPResponse(status: created ? 201 : 204, headers: headers)
    }

    private struct StatementRow {
        var json: String
        var count: Int
        var total: Int?
    }

    /// Runs a statement as the caller; PostgreSQL's errors become PostgREST's.
    private func run(_ statement: PostgresQuery, caller: RequestCaller) async throws(Refusal) -> StatementRow {
        do {
            let rows = try await context.query(statement, as: caller)
            let row = rows[0]
            return StatementRow(json: try row.decode(String.self, at: 0), count: try row.decode(Int.self, at: 1),
                                total: rows.columns.count > 2 ? try row.decode(Int.self, at: 2) : nil)
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(PostgRESTError.from(error, role: caller.role))
        }
    }

    // MARK: - Functions

    private func call(_ request: HTTPRequest, schema: String, name: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let body: String
        let keys: Set<String>
        switch request.method {
        case .post:
            if request.body.isEmpty {
                body = "{}"
                keys = []
            } else {
                guard let object = JSONText.parse(request.body) as? [String: Any] else {
                    throw PostgRESTError.refusal(400, "PGRST102", "Empty or invalid json",
                                                 hint: "send the arguments as one JSON object of name: value")
                }
                body = String(decoding: request.body, as: UTF8.self)
                keys = Set(object.keys)
            }
        case .get, .head:
            guard let items = request.queryItems else { throw PostgRESTError.parse("the query string's percent-encoding is broken") }
            let query = try TableQuery(items, argumentsAllowed: true)
            var arguments: [String: Any] = [:]
            for (name, value) in query.arguments { arguments[name] = value }
            body = JSONText.serialize(arguments)
            keys = Set(arguments.keys)
        default:
            throw PostgRESTError.refusal(405, "PGRST101", "Only GET and POST are allowed for functions")
        }
        let overloads: [SchemaCache.Function]
        do {
            overloads = try await schemas.overloads(schema: schema, name: name)
        } catch {
            throw Refusal(PostgRESTError.from(error, role: caller.role))
        }
        let function = try FunctionCall(schema: schema, name: name, keys: keys, overloads: overloads)
        if request.method != .post && function.function.volatility == "v" {
            throw PostgRESTError.refusal(405, "PGRST101", "Cannot use the GET method on RPC: \(name) changes data",
                                         hint: "call it with POST")
        }
        let text: String
        do {
            let rows = try await context.pool.withConnection { connection in
                try await connection.query(function.statement(body: body), as: caller, prepared: true)
            }
            text = try rows[0].decode(String.self, at: 1)
        } catch {
            throw Refusal(PostgRESTError.from(error, role: caller.role))
        }
        if try wantsSingleObject(request), function.returnsRows {
            let count = (JSONText.parse(text) as? [Any])?.count ?? 0
            return try singleObject(text, count: count, headers: HTTPHeaders())
        }
        return .json(200, text)
    }

    // MARK: - Helpers

    private func wantsSingleObject(_ request: HTTPRequest) throws(Refusal) -> Bool {
        guard let accept = request.headers["accept"]?.lowercased() else { return false }
        if accept.hasPrefix("application/vnd.pgrst.object") { return true }
        let acceptable = accept.split(separator: ",").contains { type in
            let media = type.split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
            return ["application/json", "*/*", "application/*", "application/vnd.pgrst.array+json"].contains(media)
        }
        guard acceptable else {
            throw PostgRESTError.refusal(406, "PGRST107", "None of these media types are available: \(accept)",
                                         hint: "Summit answers application/json")
        }
        return false
    }

    private func singleObject(_ json: String, count: Int, headers: HTTPHeaders) throws(Refusal) -> HTTPResponse {
        guard count == 1, let array = JSONText.parse(json) as? [Any], let object = array.first else {
            throw PostgRESTError.refusal(406, "PGRST116", "JSON object requested, multiple (or no) rows returned",
                                         details: "The result contains \(count) rows")
        }
        var response = HTTPResponse.json(200, object: object, headers: headers)
        response.headers.set("content-type", "application/vnd.pgrst.object+json; charset=utf-8")
        return response
    }

    private func requireFilters(_ query: TableQuery, _ verb: String) throws(Refusal) {
        guard !query.filters.isEmpty else {
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
        return (String(decoding: body, as: UTF8.self), object.keys.sorted())
    }

    /// `Range: 0-9` (items), inclusive; `5-` has no end.
    static func range(_ text: String) throws(Refusal) -> (Int, Int?) {
        let value = text.lowercased().hasPrefix("items=") ? String(text.dropFirst(6)) : text
        let parts = value.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let from = Int(parts[0]), from >= 0 else {
            throw PostgRESTError.refusal(416, "PGRST103", "Requested range not satisfiable", hint: "send Range: first-last, like 0-9")
        }
        if parts[1].isEmpty { return (from, nil) }
        guard let to = Int(parts[1]), to >= from else {
            throw PostgRESTError.refusal(416, "PGRST103", "Requested range not satisfiable", hint: "the last item comes after the first")
        }
        return (from, to)
    }
}
