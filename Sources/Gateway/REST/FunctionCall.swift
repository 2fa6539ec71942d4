import Postgres

/// `/rpc/{function}` as PostgREST runs it: pick the overload whose parameters the
/// arguments name, then call it with named arguments read from one JSON parameter
/// by `json_to_record` with the parameters' own types — so numbers, arrays and
/// objects arrive as what the function declares. The call is a CTE (run once)
/// that the read reads like a table, aliased by the function's name: `select=`,
/// filters, order, limits, counts and embedding apply to its rows.
struct FunctionCall {
    let schema: String
    let name: String
    let function: SchemaCache.Function
    /// The argument names given, in the function's order.
    let given: [SchemaCache.Function.Argument]

    /// Chooses the overload of `schema.name` that `keys` can call. The hint lists only
    /// overloads `role` may execute, so a lookup never tells a caller about functions
    /// it could not call.
    init(schema: String, name: String, keys: Set<String>, overloads: [SchemaCache.Function], role: String) throws(Refusal) {
        let signature = "\(schema).\(name)(\(keys.sorted().joined(separator: ", ")))"
        let matching = overloads.filter { function in
            let names = Set(function.arguments.map(\.name))
            return keys.isSubset(of: names) && function.requiredNames.isSubset(of: keys)
                && function.arguments.allSatisfy { !$0.name.isEmpty || function.arguments.count == 0 }
        }
        guard let function = matching.first else {
            let callable = overloads.filter { $0.executableBy.contains(role) }
            let hint = callable.isEmpty
                ? "Check the function's name and schema, and that it is in an exposed schema"
                : "Its parameters are " + callable.map { "(" + $0.arguments.map(\.name).joined(separator: ", ") + ")" }
                    .joined(separator: " or ") + "; name each argument exactly"
            throw PostgRESTError.refusal(404, "PGRST202", "Could not find the function \(signature) in the schema cache", hint: hint)
        }
        guard matching.count == 1 else {
            throw PostgRESTError.refusal(300, "PGRST203", "Could not choose the best candidate function for \(signature)",
                                         hint: "Name every argument, or rename the overloads")
        }
        self.schema = schema
        self.name = name
        self.function = function
        given = function.arguments.filter { keys.contains($0.name) }
    }

    var isVoid: Bool { function.typeName == "void" }
    /// Rows with columns (composites, records) rather than bare values.
    var returnsRows: Bool { function.typeKind == "c" || function.typeName == "record" }
    /// Where the rows come from, for embedding: the table a `setof table` function returns.
    var rowTable: (String, String)? { function.typeKind == "c" ? (function.typeSchema, function.typeName) : nil }
    var quotedAlias: String { PostgresQuery.quoteIdentifier(name) }

    /// How the result becomes the body: rows as an array (one composite as an object),
    /// values as an array of values (one value alone).
    func body(stripNulls: Bool) -> ReadStatement.Body {
        if returnsRows { return function.returnsSet ? .array(stripNulls: stripNulls) : .object }
        return .values(column: name, single: !function.returnsSet)
    }

    /// `summit_call as (…)`: the call, reading its arguments from `$1`.
    var prelude: String {
        let callee = PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(name)
        let arguments = given.map { argument in
            PostgresQuery.quoteIdentifier(argument.name) + " => summit_args." + PostgresQuery.quoteIdentifier(argument.name)
        }.joined(separator: ", ")
        // A scalar result is named after the function, so filters and order can name it.
        let call = "\(callee)(\(arguments)) as \(quotedAlias)" + (returnsRows ? "" : "(\(quotedAlias))")
        // Types come from pg_catalog's format_type: not client text.
        let from = given.isEmpty ? call : "json_to_record($1::json) as summit_args("
            + given.map { PostgresQuery.quoteIdentifier($0.name) + " " + $0.type }.joined(separator: ", ") + "), lateral " + call
        return "summit_call as (select \(quotedAlias).* from \(from))"
    }

    /// The binds the prelude reads: the arguments' JSON, when any are given.
    func binds(body: String) -> [String] { given.isEmpty ? [] : [body] }

    /// For a function returning nothing: one row of (true, `null`).
    func voidStatement(body: String) -> PostgresQuery {
        let callee = PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(name)
        let arguments = given.map { argument in
            PostgresQuery.quoteIdentifier(argument.name) + " => summit_args." + PostgresQuery.quoteIdentifier(argument.name)
        }.joined(separator: ", ")
        let source = given.isEmpty ? "" : " from json_to_record($1::json) as summit_args("
            + given.map { PostgresQuery.quoteIdentifier($0.name) + " " + $0.type }.joined(separator: ", ") + ")"
        // The call is in the output, so it runs even where a planner would drop unused columns.
        let sql = "select 'null'::text, case when \(callee)(\(arguments)) is null then 1 else 1 end" + source
        return PostgresQuery(unsafeSQL: sql, binds: binds(body: body))
    }
}
