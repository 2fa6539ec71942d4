import Postgres

/// `POST /rpc/{function}` as PostgREST runs it: pick the overload whose parameters
/// the JSON body's keys name, then call it with named arguments read from the body
/// by `json_to_record` with the parameters' own types — so numbers, arrays and
/// objects arrive as what the function declares, and the body is one parameter.
struct FunctionCall {
    let schema: String
    let name: String
    let function: SchemaCache.Function
    /// The argument names given, in the function's order.
    let given: [SchemaCache.Function.Argument]

    /// Chooses the overload of `schema.name` that `keys` can call.
    init(schema: String, name: String, keys: Set<String>, overloads: [SchemaCache.Function]) throws(Refusal) {
        let signature = "\(schema).\(name)(\(keys.sorted().joined(separator: ", ")))"
        guard !overloads.isEmpty else {
            throw PostgRESTError.refusal(404, "PGRST202", "Could not find the function \(signature) in the schema cache",
                                         hint: "Check the function's name and schema, and that it is in an exposed schema")
        }
        let matching = overloads.filter { function in
            let names = Set(function.arguments.map(\.name))
            return keys.isSubset(of: names) && function.requiredNames.isSubset(of: keys)
                && function.arguments.allSatisfy { !$0.name.isEmpty || function.arguments.count == 0 }
        }
        guard let function = matching.first else {
            let known = overloads.map { "(" + $0.arguments.map(\.name).joined(separator: ", ") + ")" }.joined(separator: " or ")
            throw PostgRESTError.refusal(404, "PGRST202", "Could not find the function \(signature) in the schema cache",
                                         hint: "Its parameters are \(known); name each argument exactly")
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
    /// Rows out (sets, composites, records) rather than one value.
    var returnsRows: Bool { function.returnsSet || function.typeKind == "c" || function.typeName == "record" }

    /// One statement answering one row: the result as JSON text.
    func statement(body: String) -> PostgresQuery {
        let callee = PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(name)
        let arguments = given.map { argument in
            PostgresQuery.quoteIdentifier(argument.name) + " => summit_args." + PostgresQuery.quoteIdentifier(argument.name)
        }.joined(separator: ", ")
        let call = "\(callee)(\(arguments))"
        // Types come from pg_catalog's format_type: not client text.
        let source = given.isEmpty ? "" : " from json_to_record($1::json) as summit_args("
            + given.map { PostgresQuery.quoteIdentifier($0.name) + " " + $0.type }.joined(separator: ", ") + ")"
        let sql: String
        if isVoid {
            sql = "select \(call) is null, 'null'::text" + source
        } else if function.returnsSet && function.typeKind != "c" && function.typeName != "record" {
            // setof a scalar: an array of values.
            let from = given.isEmpty ? " from \(call) as summit_call(value)" : source + ", lateral \(call) as summit_call(value)"
            sql = "select true, coalesce(jsonb_agg(summit_call.value), '[]'::jsonb)::text" + from
        } else if returnsRows {
            let from = given.isEmpty ? " from \(call) as summit_call" : source + ", lateral \(call) as summit_call"
            sql = "select true, coalesce(jsonb_agg(to_jsonb(summit_call)), '[]'::jsonb)::text" + from
        } else {
            sql = "select true, coalesce(to_jsonb(\(call)), 'null'::jsonb)::text" + source
        }
        return given.isEmpty ? PostgresQuery(unsafeSQL: sql) : PostgresQuery(unsafeSQL: sql, binds: [body])
    }
}
