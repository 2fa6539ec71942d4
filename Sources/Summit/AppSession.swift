import Foundation
import Migrator
import Postgres
import SummitDatabase

/// The apps' side of Summit, for the command line: one connection to Summit's
/// database on which commands find people and call the RPCs as a user (or as
/// the service role), each call in its own transaction with that caller's role
/// and claims — exactly what an app's request does, so every rule in SQL applies.
public struct AppSession: Sendable {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Connects to Summit's database (embedded, or DATABASE_URL) and runs `body`.
    /// Refuses a database whose schema is behind the checkout, since the RPCs
    /// a command calls might not exist there yet.
    public static func with<T: Sendable>(
        _ workspace: Workspace, _ body: (AppSession) async throws -> T
    ) async throws -> T {
        let configuration = try await SummitDatabase(workspace: workspace).prepare()
        return try await PostgresConnection.withConnection(configuration) { connection in
            let status = try await Migrator(source: try workspace.migrationSource()).status(on: connection)
            if !status.pending.isEmpty || status.repeatablesNeedApplying {
                var behind: [String] = []
                if !status.pending.isEmpty { behind.append("\(status.pending.count) migration\(status.pending.count == 1 ? "" : "s") pending") }
                let changed = status.changedRepeatables + status.removedRepeatables
                if !changed.isEmpty { behind.append("sql/ changed: \(changed.joined(separator: ", "))") }
                throw CLIError("Summit's database is behind this checkout (\(behind.joined(separator: "; ")))",
                               fix: "run `summit migrate` (or `summit up`) first")
            }
            return try await body(AppSession(connection: connection))
        }
    }

    // MARK: people

    /// Someone with an account: the id, and the username once they claimed one.
    public struct Person: Sendable, Decodable, Equatable {
        public var id: UUID
        public var username: String?
        public var email: String?

        /// How commands name them: the username, else the email, else the id.
        public var name: String { username ?? email ?? id.uuidString.lowercased() }
    }

    /// A person by username (`ann` or `@ann`), email, or id.
    public func person(_ text: String) async throws -> Person {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let found: Person?
        if let id = UUID(uuidString: trimmed) {
            found = try await connection.query("""
                select u.id, p.username, u.email from auth.users u left join social.profiles p on p.id = u.id
                where u.id = \(id)
                """).first(as: Person.self)
        } else if trimmed.contains("@") && !trimmed.hasPrefix("@") {
            found = try await connection.query("""
                select u.id, p.username, u.email from auth.users u left join social.profiles p on p.id = u.id
                where lower(u.email) = lower(\(trimmed))
                """).first(as: Person.self)
        } else {
            let username = (trimmed.hasPrefix("@") ? String(trimmed.dropFirst()) : trimmed).lowercased()
            found = try await connection.query("""
                select u.id, p.username, u.email from social.profiles p join auth.users u on u.id = p.id
                where p.username = \(username)
                """).first(as: Person.self)
        }
        guard let found else {
            throw CLIError("there is no user \"\(trimmed)\"",
                           fix: "give a username, an email or a user id; `summit users add NAME` creates one")
        }
        return found
    }

    /// The user a command acts as (`--as`).
    public func caller(_ text: String) async throws -> (caller: Caller, person: Person) {
        let person = try await person(text)
        return (.user(person.id), person)
    }

    /// `--as` for admin commands: the service role unless an admin user is named.
    public func adminCaller(_ text: String?) async throws -> Caller {
        guard let text, !["service", "service_role"].contains(text.lowercased()) else { return .serviceRole }
        return try await caller(text).caller
    }

    // MARK: RPCs

    /// What a function returns, which decides how its result becomes JSON.
    public enum Shape: Sendable {
        /// One value (jsonb, text, boolean, …).
        case value
        /// A set of rows: a JSON array of objects.
        case rows
        /// Nothing (void): `null`.
        case none
    }

    /// The JSON an RPC answered, as text (printed by `--json`) and parsed.
    public struct Answer: Sendable {
        public var text: String
        public var json: JSONValue
    }

    /// Calls `schema.function(name => value, …)` as `caller`, in a transaction of its own.
    /// A refusal the function raises (SQLSTATE P0001) becomes an `RPCRefusal`.
    @discardableResult
    public func call(
        _ function: String, _ arguments: [(String, any PostgresEncodable)] = [],
        as caller: Caller, shape: Shape = .value
    ) async throws -> Answer {
        let name = function.split(separator: ".").map { PostgresQuery.quoteIdentifier(String($0)) }.joined(separator: ".")
        let call = name + "(" + arguments.enumerated()
            .map { "\(PostgresQuery.quoteIdentifier($1.0)) => $\($0 + 1)" }.joined(separator: ", ") + ")"
        let sql = switch shape {
        case .value: "select coalesce(to_jsonb(\(call)), 'null'::jsonb)::text"
        case .rows: "select coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb)::text from \(call) as r"
        case .none: "select 'null'::text from (select \(call)) as done"
        }
        let query = PostgresQuery(unsafeSQL: sql, binds: arguments.map(\.1))
        do {
            let text = try await connection.acting(as: caller) { connection in
                try await connection.query(query).scalar(String.self)
            }
            return Answer(text: text, json: try JSONValue(parsing: text))
        } catch let error as PostgresError where error.code == .raiseException {
            throw RPCRefusal(function: function, code: error.message, hint: error.hint)
        } catch let error as PostgresError where error.code == .insufficientPrivilege {
            throw CLIError("\(caller) may not call \(function)", fix: "act as a signed-in user with --as USER")
        }
    }
}

/// An RPC said no: `code` is its stable snake_case message, `hint` what to do about it.
public struct RPCRefusal: Error, Sendable, CustomStringConvertible {
    public var function: String
    public var code: String
    public var hint: String?

    public var description: String {
        "\(function) refused: \(code)" + (hint.map { " (\($0))" } ?? "")
    }
}
