import Foundation
import Postgres

/// Calls a SQL function with named arguments as a given caller and returns its result as
/// JSON — the way the hosted platform's REST gateway runs `POST /rpc/{function}`.
public struct RemoteProcedureCall: Sendable {
    public var schema: String
    public var function: String
    /// Name → value in PostgreSQL's text input form; the server casts each to the parameter's type.
    public var arguments: [(name: String, value: String)]

    /// `schema.function` or `function` (schema `public`).
    public init(_ qualifiedName: String, arguments: [(name: String, value: String)]) {
        let parts = qualifiedName.split(separator: ".", maxSplits: 1).map(String.init)
        schema = parts.count == 2 ? parts[0] : "public"
        function = parts.last ?? qualifiedName
        self.arguments = arguments
    }

    private struct Shape: Decodable {
        var returnsSet: Bool
        var typeKind: String
        var typeName: String
    }

    /// Runs the call in its own transaction as `caller` and returns compact JSON text:
    /// an array for functions returning rows or sets, the value for scalars, `null` for void.
    public func call(as caller: Caller, on connection: PostgresConnection) async throws -> String {
        guard let shape = try await connection.query("""
            select p.proretset as returns_set, t.typtype::text as type_kind, t.typname::text as type_name
            from pg_proc p
            join pg_namespace n on n.oid = p.pronamespace
            join pg_type t on t.oid = p.prorettype
            where n.nspname = \(schema) and p.proname = \(function)
            order by p.oid limit 1
            """).first(as: Shape.self)
        else {
            throw CLIError("there is no function \(schema).\(function)",
                           fix: "check the name (schema.function); `summit psql -c '\\df \(schema).*'` lists them")
        }
        let call = PostgresQuery.quoteIdentifier(schema) + "." + PostgresQuery.quoteIdentifier(function) + "("
            + arguments.enumerated().map { "\(PostgresQuery.quoteIdentifier($1.name)) => $\($0 + 1)" }.joined(separator: ", ")
            + ")"
        let sql: String
        if shape.typeName == "void" {
            sql = "select \(call) is null as done, 'null'"
        } else if shape.returnsSet || shape.typeKind == "c" || shape.typeName == "record" {
            sql = "select coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb)::text from \(call) as r"
        } else {
            sql = "select coalesce(to_jsonb(\(call)), 'null'::jsonb)::text"
        }
        let query = PostgresQuery(unsafeSQL: sql, binds: arguments.map(\.value))
        return try await connection.acting(as: caller) { connection in
            let rows = try await connection.query(query)
            return try rows[0].decode(String.self, at: rows.columns.count - 1)
        }
    }

    /// `anon`, `service_role` (or `service`), a user id, or an email in `auth.users`.
    public static func resolveCaller(_ text: String, on connection: PostgresConnection) async throws -> Caller {
        switch text.lowercased() {
        case "anon": return .anon
        case "service", "service_role": return .serviceRole
        default: break
        }
        if let id = UUID(uuidString: text) { return .user(id) }
        guard let id = try await connection.query(
            "select id from auth.users where lower(email) = lower(\(text))").first(as: UUID.self)
        else {
            throw CLIError("no user \"\(text)\"", fix: "give a user id, an email in auth.users, anon, or service_role")
        }
        return .user(id)
    }
}
