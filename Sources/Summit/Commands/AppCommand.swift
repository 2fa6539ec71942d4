import Foundation
import Postgres

/// What the commands that act as an app user share: `--as`, `--json`, and
/// opening a session with the caller (and the person a command is about) resolved.
enum AppCommand {
    static let asOption = Command.Option.value("--as", "USER", "who does it: a username, email or user id (required)")
    static let jsonOption = Command.Option.flag("--json", "print the RPC's answer as JSON")

    /// Opens the session and resolves `--as`.
    static func acting<T: Sendable>(
        _ invocation: Invocation,
        _ body: @Sendable (AppSession, (caller: Caller, person: AppSession.Person)) async throws -> T
    ) async throws -> T {
        let me = try invocation.required("--as")
        return try await AppSession.with(try invocation.workspace()) { session in
            try await body(session, try await session.caller(me))
        }
    }

    /// As `acting`, with the first argument resolved to a person too.
    static func actingOn<T: Sendable>(
        _ invocation: Invocation,
        _ body: @Sendable (AppSession, (caller: Caller, person: AppSession.Person), AppSession.Person) async throws -> T
    ) async throws -> (T, AppSession.Person) {
        try await acting(invocation) { session, me in
            let other = try await session.person(invocation.arguments[0])
            return (try await body(session, me, other), other)
        }
    }

    static func print(_ answer: AppSession.Answer, _ invocation: Invocation) -> Int32 {
        invocation.console.out(DatabaseCommands.prettyJSON(answer.text))
        return 0
    }
}
