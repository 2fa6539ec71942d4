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
            let schema = try profile(of: request, app: caller.app)
            let parts = Array(path)
            switch parts.count {
            case 1 where !parts[0].isEmpty:
                let table = try Identifier.check(String(parts[0]), "table")
                return try await self.table(request, target: TableTarget(schema: schema, table: table), caller: caller)
            case 2 where parts[0] == "rpc" && !parts[1].isEmpty:
                return try await call(request, schema: schema, name: try Identifier.check(String(parts[1]), "function"), caller: caller)
            default:
                throw PostgRESTError.refusal(404, "PGRST125", "Invalid path: use /rest/v1/{table} or /rest/v1/rpc/{function}")
            }
        } catch let refusal as Refusal {
            return refusal.response
        } catch {
            return PostgRESTError.from(error, role: "anon")
        }
    }

    /// The schema named by `Accept-Profile` (reads) or `Content-Profile` (writes), if exposed;
    /// else the app's face when the API key is an app's, else the first exposed. For an
    /// app's key `public` is its face too: the platform's clients name `public` when the
    /// app names no schema (supabase-js and supabase-py send it on every request).
    private func profile(of request: HTTPRequest, app: AppFace?) throws(Refusal) -> String {
        let exposed = context.configuration.exposedSchemas
        let header = [.get, .head].contains(request.method) ? "accept-profile" : "content-profile"
        guard let requested = request.headers[header] else { return app?.schema ?? exposed[0] }
        if requested == "public", let app { return app.schema }
        guard exposed.contains(requested) else {
            throw PostgRESTError.refusal(406, "PGRST106", "Invalid schema: \(requested.prefix(80))",
                                         hint: "Only the following schemas are exposed: \(exposed.joined(separator: ", "))")
        }
        return requested
    }

    // MARK: - Shared by tables and functions

    struct StatementRow {
        var body: String
        var count: Int
        var total: Int?
    }

    /// What the `Accept` header asks for; a plan only where the configuration allows it.
    func media(of request: HTTPRequest) throws(Refusal) -> ResponseMedia {
        let media = try ResponseMedia.negotiate(request.headers["accept"])
        if case .plan = media, !context.configuration.restPlanEnabled {
            throw PostgRESTError.refusal(406, "PGRST107", "None of these media types are available: \(request.headers["accept"] ?? "")",
                                         hint: "query plans are off: set SUMMIT_REST_PLAN_ENABLED=true to serve application/vnd.pgrst.plan")
        }
        return media
    }

    /// Where a statement runs: the primary; the read pool, for a lag-tolerant read
    /// (`ReadRouting`); or the primary as a write, after which its caller reads from the
    /// primary for a while.
    enum Route { case primary, lagTolerant, write }

    /// Runs `statement` as the caller (with `planned`, the planner's row estimate, first), in a
    /// read-only transaction when `readOnly`. A plan request runs `explain …` instead and
    /// answers its text. PostgreSQL's errors become PostgREST's.
    func run(_ statement: PostgresQuery, planned: PostgresQuery? = nil, media: ResponseMedia, caller: RequestCaller,
             prepared: Bool = false, readOnly: Bool = false, route: Route = .primary) async throws(Refusal) -> StatementRow {
        if route == .write { context.noteWrite(by: caller.userID) }
        do {
            if let explain = media.explainPrefix {
                var explained = statement
                explained.sql = explain + statement.sql
                let plan = explained
                let rows = try await context.withConnection(lagTolerant: route == .lagTolerant) { connection in
                    try await connection.queries([plan], as: caller, readOnly: readOnly)
                }[0]
                return StatementRow(body: try rows.map { try $0.decode(String.self, at: 0) }.joined(separator: "\n"), count: 0, total: nil)
            }
            let results = try await context.withConnection(lagTolerant: route == .lagTolerant) { connection in
                try await connection.queries((planned.map { [$0] } ?? []) + [statement], as: caller, prepared: prepared, readOnly: readOnly)
            }
            let row = results[results.count - 1][0]
            var total = results[results.count - 1].columns.count > 2 ? try row.decode(Int.self, at: 2) : nil
            if planned != nil { total = try Self.planRows(results[0]) }
            return StatementRow(body: try row.decode(String.self, at: 0), count: try row.decode(Int.self, at: 1), total: total)
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(PostgRESTError.from(error, role: caller.role))
        }
    }

    /// "Plan Rows" of `explain (format json)`'s top node.
    private static func planRows(_ rows: PostgresRows) throws -> Int? {
        let text = try rows[0].decode(String.self, at: 0)
        let plan = (JSONText.parse(text) as? [[String: Any]])?.first?["Plan"] as? [String: Any]
        return (plan?["Plan Rows"] as? NSNumber)?.intValue
    }

    /// A read's answer, as PostgREST gives it: `Content-Range` from the page's first row,
    /// 206 when the page holds fewer rows than the total, 416 past the end.
    func readResponse(_ row: StatementRow, media: ResponseMedia, start: Int) throws(Refusal) -> HTTPResponse {
        if case .plan = media { return Self.body(200, row.body, media: media, headers: HTTPHeaders()) }
        var headers = HTTPHeaders()
        headers.set("content-range", Self.contentRange(lower: start, upper: start + row.count - 1, total: row.total))
        if media.isSingle { return try singleObject(row.body, count: row.count, headers: headers) }
        var status = 200
        if let total = row.total {
            if start > total {
                throw PostgRESTError.refusal(416, "PGRST103", "Requested range not satisfiable",
                                             details: "An offset of \(start) was requested, but there are only \(total) rows.")
            }
            if row.count < total { status = 206 }
        }
        return Self.body(status, row.body, media: media, headers: headers)
    }

    /// PostgREST's `Content-Range`: `first-last/total`, `*` for the range when there are
    /// no rows (or the total is 0), `*` for an uncounted total.
    static func contentRange(lower: Int, upper: Int, total: Int?) -> String {
        let range = total != 0 && lower <= upper ? "\(lower)-\(upper)" : "*"
        return range + "/" + (total.map(String.init) ?? "*")
    }

    static func body(_ status: Int, _ text: String, media: ResponseMedia, headers: HTTPHeaders) -> HTTPResponse {
        var headers = headers
        headers.set("content-type", media.contentType)
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    func singleObject(_ json: String, count: Int, headers: HTTPHeaders, status: Int = 200) throws(Refusal) -> HTTPResponse {
        let trimmed = json.trimmingCharacters(in: .whitespacesAndNewlines)
        guard count == 1, trimmed.hasPrefix("["), trimmed.hasSuffix("]") else {
            throw PostgRESTError.refusal(406, "PGRST116", "JSON object requested, multiple (or no) rows returned",
                                         details: "The result contains \(count) rows")
        }
        // The one element's own text, so its keys keep the order PostgreSQL gave them.
        let object = String(trimmed.dropFirst().dropLast())
        var headers = headers
        headers.set("content-type", "application/vnd.pgrst.object+json; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array(object.utf8))
    }

    /// The page a read asks for: `limit`/`offset`, narrowed by a `Range: first-last` header.
    func page(_ request: HTTPRequest, _ query: TableQuery) throws(Refusal) -> (limit: Int?, offset: Int?) {
        var limit = query.limit
        var offset = query.offset
        if let range = request.headers["range"] {
            let (from, to) = try Self.range(range)
            offset = max(offset ?? 0, from)
            if let to { limit = min(limit ?? Int.max, to - from + 1) }
        }
        return (limit, offset)
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

    /// The embedded resources of `query` resolved against the schema cache.
    func plan(_ query: TableQuery, source: String, alias: String, table: (String, String)?,
              caller: RequestCaller) async throws(Refusal) -> ReadNode {
        var embedding = Embedding(cache: schemas, exposed: context.configuration.exposedSchemas)
        return try await embedding.plan(query, source: source, alias: alias, table: table, role: caller.role)
    }
}
