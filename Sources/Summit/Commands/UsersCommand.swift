import Foundation
import Postgres

/// `summit users add`: accounts for trying the apps' rules from the command line.
enum UsersCommand {
    static let command = Command(
        name: "users",
        summary: "Create accounts (emulated auth) with a username.",
        subcommands: [add])

    /// Where made-up addresses live: `.test` is reserved, so no mail can ever go there.
    static let emailDomain = "summit.test"

    static let add = Command(
        name: "add",
        summary: "Create an account and claim its username, as the app's sign-up does.",
        discussion: """
            Adds a row to auth.users (the emulated platform auth) and calls social.claim_username as the \
            new user, so the username rules apply: 3 to 20 characters, a to z, digits and single \
            underscores, not reserved, not taken. Example:
              summit users add ann
              summit users add bob --email bob@example.com
            """,
        arguments: [.init(name: "NAME", help: "the username to claim")],
        options: [
            .value("--email", "EMAIL", "the account's email (default NAME@\(emailDomain))"),
            .flag("--json", "print the new account as JSON"),
        ],
        run: { invocation in
            let name = invocation.arguments[0]
            let email = invocation.value("--email") ?? "\(name.lowercased())@\(emailDomain)"
            let person = try await AppSession.with(try invocation.workspace()) { session in
                try await create(name: name, email: email, in: session)
            }
            if invocation.json {
                try invocation.console.json(["id": person.id.uuidString.lowercased(), "username": person.username ?? "",
                                             "email": person.email ?? ""])
            } else {
                invocation.console.out("created \(person.name) (id \(person.id.uuidString.lowercased()), email \(person.email ?? "-"))")
            }
            return 0
        })

    /// Both steps in one transaction: a username that can't be claimed leaves no account behind.
    static func create(name: String, email: String, in session: AppSession) async throws -> AppSession.Person {
        let connection = session.connection
        // The default email comes from the name, so a taken name would otherwise look like a taken email.
        let normalized = name.trimmingCharacters(in: .whitespaces).lowercased()
        let wanted = normalized.hasPrefix("@") ? String(normalized.dropFirst()) : normalized
        if try await connection.query("select count(*) from social.profiles where username = \(wanted)").scalar(Int.self) > 0 {
            throw CLIError("the username \"\(wanted)\" is taken", fix: "choose another NAME")
        }
        do {
            return try await connection.transaction { connection in
                let id = try await connection.query(
                    "insert into auth.users (email) values (\(email)) returning id").scalar(UUID.self)
                let profile = try await connection.acting(as: .user(id)) { connection in
                    try await connection.query("select social.claim_username(\(name))::text").scalar(String.self)
                }
                let username = try JSONValue(parsing: profile)["username"].string
                return AppSession.Person(id: id, username: username, email: email)
            }
        } catch let error as PostgresError where error.code == .uniqueViolation {
            throw CLIError("there is already an account with the email \(email)", fix: "give another address with --email")
        } catch let error as PostgresError where error.code == .raiseException {
            switch error.message {
            case "username_taken":
                throw CLIError("the username \"\(name)\" is taken", fix: "choose another NAME")
            case "username_reserved":
                throw CLIError("the username \"\(name)\" is reserved", fix: "choose another NAME")
            case "username_invalid":
                throw CLIError("\"\(name)\" is not a valid username",
                               fix: error.hint ?? "use 3 to 20 characters: a to z, digits and single underscores")
            default:
                throw RPCRefusal(function: "social.claim_username", code: error.message, hint: error.hint)
            }
        }
    }
}
