import Foundation
import Postgres

/// `/rest/v1/rpc/{function}`: POST with named JSON arguments, GET and HEAD with
/// them in the query string (in a read-only transaction, as PostgREST runs them),
/// and the result read like a table: `select=`, filters, logic trees, order,
/// `limit`/`offset`, `Range`, counts and embedding apply to its rows.
extension RestService {
    func call(_ request: HTTPRequest, schema: String, name: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        guard let items = request.queryItems else { throw PostgRESTError.parse("the query string's percent-encoding is broken") }
        let overloads: [SchemaCache.Function]
        do {
            overloads = try await schemas.overloads(schema: schema, name: name)
        } catch {
            throw Refusal(PostgRESTError.from(error, role: caller.role))
        }
        let readOnly: Bool
        let body: String
        let keys: Set<String>
        let query: TableQuery
        switch request.method {
        case .post:
            readOnly = false
            query = try TableQuery(items)
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
            readOnly = true
            // A parameter named like one of the function's parameters is an argument; the rest filter its rows.
            let names = Set(overloads.flatMap { $0.arguments.map(\.name) }.filter { !$0.isEmpty })
            query = try TableQuery(items, argumentNames: names)
            var arguments: [String: Any] = [:]
            for (name, value) in query.arguments { arguments[name] = value }
            body = JSONText.serialize(arguments)
            keys = Set(arguments.keys)
        default:
            throw PostgRESTError.refusal(405, "PGRST101", "Only GET, HEAD and POST are allowed for functions")
        }
        for key in keys { _ = try Identifier.check(key, "argument") }
        guard !overloads.isEmpty else {
            throw PostgRESTError.refusal(404, "PGRST202", "Could not find the function \(schema).\(name)(\(keys.sorted().joined(separator: ", "))) in the schema cache",
                                         hint: "Check the function's name and schema, and that it is in an exposed schema")
        }
        let function = try FunctionCall(schema: schema, name: name, keys: keys, overloads: overloads, role: caller.role)
        let route = route(name, function.function, readOnly: readOnly, caller: caller)
        let media = try media(of: request)
        let preferences = Preferences(request.headers)
        if function.isVoid {
            let row = try await run(function.voidStatement(body: body), media: media, caller: caller, prepared: true, readOnly: readOnly,
                                    route: route)
            if case .plan = media { return Self.body(200, row.body, media: media, headers: HTTPHeaders()) }
            return .json(200, row.body)
        }
        let (limit, offset) = try page(request, query)
        var readQuery = query
        if !function.returnsRows {
            // Values, not rows: the one column is named after the function.
            readQuery.select = [.column(name: name, alias: nil, cast: nil)]
        }
        let root = try await plan(readQuery, source: "summit_call", alias: name, table: function.rowTable, caller: caller)
        var builder = SQLBuilder(binds: function.binds(body: body))
        let sql = ReadStatement.statement(root, prelude: function.prelude, body: media == .csv ? .csv : function.body(stripNulls: media.stripNulls),
                                          exactTotal: preferences.exactCount, limit: limit, offset: offset, &builder)
        var planned: PostgresQuery?
        if preferences.count == .planned {
            var countBuilder = SQLBuilder(binds: function.binds(body: body))
            planned = countBuilder.query(ReadStatement.plannedCount(root, prelude: function.prelude, &countBuilder))
        }
        // The plain call repeats (a hot path), so it is prepared; with modifiers the text varies.
        let prepared = !query.hasModifiers && request.headers["range"] == nil && preferences.count == nil
        let row = try await run(builder.query(sql), planned: planned, media: media, caller: caller, prepared: prepared, readOnly: readOnly,
                                route: route)
        if case .plan = media { return Self.body(200, row.body, media: media, headers: HTTPHeaders()) }
        if media.isSingle {
            guard function.function.returnsSet || function.returnsRows else { return Self.body(200, row.body, media: .array(stripNulls: false), headers: HTTPHeaders()) }
            if !function.function.returnsSet { return try singleObject("[" + row.body + "]", count: row.body == "null" ? 0 : 1, headers: HTTPHeaders()) }
        }
        if function.function.returnsSet || media == .csv {
            return try readResponse(row, media: media, start: offset ?? 0)
        }
        // One value or one row: no range to speak of.
        return Self.body(200, row.body, media: .array(stripNulls: false), headers: HTTPHeaders())
    }

    /// A stable or immutable function only reads: named in `ReadRouting`, the read pool may
    /// answer it. A volatile one called with POST may write.
    private func route(_ name: String, _ function: SchemaCache.Function, readOnly: Bool, caller: RequestCaller) -> Route {
        guard function.volatility != "v" else { return readOnly ? .primary : .write }
        return context.reads?.serves(function: name, caller: caller, now: context.clock()) == true ? .lagTolerant : .primary
    }
}
