import Foundation
import Postgres

/// `summit admin …`: the moderation queue and actions, through the admin RPCs.
///
/// They run as the service role unless --as names someone in social.admins.
/// Actions by the service role are recorded with no admin (admin_id null), so
/// naming a real admin keeps the moderation history attributable.
enum AdminCommand {
    static let asAdmin = Command.Option.value("--as", "ADMIN", "an admin's username, email or id (default: the service role)")

    static let command = Command(
        name: "admin",
        summary: "Moderation: the report queue, hiding grids and moments, suspending and lifting sharing.",
        discussion: """
            Admins hide, unhide, suspend, lift and dismiss; they never edit content. Every action is logged. \
            The same work has a web page: the moderation site at /admin on summit serve, for the people \
            `summit admin grant` names (see docs/admin-site.md).
            """,
        subcommands: [reports, hide, suspend, lift, grant, revoke, admins])

    static let reports = Command(
        name: "reports",
        summary: "List reports, newest first.",
        options: [
            .value("--status", "STATUS", "open (default), actioned, dismissed or all"),
            .value("--limit", "N", "at most N reports (default 50, at most 200)"),
            asAdmin, AppCommand.jsonOption,
        ],
        run: { invocation in
            let status = invocation.value("--status") ?? "open"
            guard ["open", "actioned", "dismissed", "all"].contains(status) else {
                throw CLIError.usage("--status is open, actioned, dismissed or all", command: invocation.commandPath)
            }
            let limit = try invocation.value("--limit").map { try GridsCommand.number($0, "--limit", invocation) } ?? 50
            let answer = try await asAdmin(invocation) { session, admin in
                try await session.call("social.admin_list_reports",
                                       [("p_status", status == "all" ? nil : status as String?), ("p_limit", limit)], as: admin)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            if answer.json.array.isEmpty { invocation.console.note("no \(status == "all" ? "" : status + " ")reports") }
            for report in answer.json.array {
                let about = report["summary"].string ?? report["target_username"].string ?? ""
                invocation.console.out("\(report["id"].string ?? "")  \(report["status"].string ?? "")  "
                    + "\(report["target_type"].string ?? "") \(report["target_id"].string ?? "") \"\(about)\"  "
                    + "\(report["reason"].string ?? "")  \(report["created_at"].string ?? "")")
            }
            return 0
        })

    static let hide = Command(
        name: "hide",
        summary: "Hide a grid (out of the Atlas) or a moment (from everyone but its owner); --undo unhides.",
        discussion: "Two hides against one person within 30 days suspend their sharing automatically.",
        arguments: [
            .init(name: "KIND", help: "grid or moment"),
            .init(name: "ID", help: "the grid's or moment's id"),
        ],
        options: [
            .value("--report", "REPORT", "the report this resolves"),
            .value("--note", "TEXT", "why (kept in the moderation log)"),
            .flag("--undo", "unhide instead"),
            asAdmin, AppCommand.jsonOption,
        ],
        run: { invocation in
            let kind = invocation.arguments[0]
            guard ["grid", "moment"].contains(kind) else {
                throw CLIError.usage("KIND is grid or moment", command: invocation.commandPath)
            }
            let id = try uuid(invocation.arguments[1], "ID", invocation)
            let report = try invocation.value("--report").map { try uuid($0, "--report", invocation) }
            let undo = invocation.flag("--undo")
            let function = "social.admin_\(undo ? "unhide" : "hide")_\(kind)"
            let answer = try await asAdmin(invocation) { session, admin in
                try await session.call(function, [("p_\(kind)_id", id), ("p_report_id", report),
                                                  ("p_note", invocation.value("--note") ?? "")], as: admin)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out("\(undo ? "unhid" : "hid") \(kind) \(id.uuidString.lowercased())")
            return 0
        })

    static let suspend = Command(
        name: "suspend",
        summary: "Suspend USER's sharing: they reach friends at most and cannot share to the Atlas.",
        arguments: [.init(name: "USER", help: "a username, email or user id")],
        options: [
            .value("--until", "TIME", "when it ends, e.g. 2026-12-31 or 2026-12-31T12:00:00Z (default: until lifted)"),
            .value("--note", "TEXT", "why (kept in the moderation log)"),
            asAdmin, AppCommand.jsonOption,
        ],
        run: { invocation in
            let until = invocation.value("--until")
            let (answer, person) = try await asAdmin(invocation) { session, admin in
                let person = try await session.person(invocation.arguments[0])
                return (try await session.call("social.admin_suspend_sharing", [
                    ("p_user_id", person.id), ("p_until", until), ("p_note", invocation.value("--note") ?? ""),
                ], as: admin), person)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out("suspended \(person.name)'s sharing " + (until.map { "until \($0)" } ?? "until lifted"))
            return 0
        })

    static let lift = Command(
        name: "lift",
        summary: "Lift USER's sharing suspension.",
        arguments: [.init(name: "USER", help: "a username, email or user id")],
        options: [.value("--note", "TEXT", "why (kept in the moderation log)"), asAdmin, AppCommand.jsonOption],
        run: { invocation in
            let (answer, person) = try await asAdmin(invocation) { session, admin in
                let person = try await session.person(invocation.arguments[0])
                return (try await session.call("social.admin_lift_suspension", [
                    ("p_user_id", person.id), ("p_note", invocation.value("--note") ?? ""),
                ], as: admin), person)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out("lifted \(person.name)'s suspension")
            return 0
        })

    static let grant = adminChange(grant: true, summary:
        "Make USER an admin: they may sign in to the moderation site (/admin on summit serve) and call the admin RPCs.")
    static let revoke = adminChange(grant: false, summary:
        "USER is no longer an admin: the admin RPCs refuse them, and their moderation site session ends at its next request.")

    static func adminChange(grant: Bool, summary: String) -> Command {
        Command(name: grant ? "grant" : "revoke", summary: summary,
                arguments: [.init(name: "USER", help: "a username, email or user id")], options: [AppCommand.jsonOption],
                run: { invocation in try await changeAdmins(invocation, grant: grant) })
    }

    static let admins = Command(
        name: "admins",
        summary: "List the admins: who may sign in to the moderation site.",
        options: [AppCommand.jsonOption],
        run: { invocation in
            struct Row: Codable { var id: UUID; var username: String?; var email: String?; var since: String }
            let rows = try await AppSession.with(try invocation.workspace()) { session in
                try await session.connection.query("""
                    select a.user_id as id, p.username, u.email, to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC' as since
                    from social.admins a join auth.users u on u.id = a.user_id left join social.profiles p on p.id = a.user_id
                    order by p.username, u.email
                    """).decode(Row.self)
            }
            if invocation.json {
                try invocation.console.json(rows)
                return 0
            }
            if rows.isEmpty { invocation.console.note("no admins yet: summit admin grant USER") }
            for row in rows {
                invocation.console.out("\(row.username ?? "-")  \(row.email ?? "-")  \(row.id.uuidString.lowercased())  since \(row.since)")
            }
            return 0
        })

    /// Adds or removes USER's row in social.admins, as the database owner: the operator's
    /// decision, never an app's.
    static func changeAdmins(_ invocation: Invocation, grant: Bool) async throws -> Int32 {
        let (person, changed) = try await AppSession.with(try invocation.workspace()) { session in
            let person = try await session.person(invocation.arguments[0])
            guard try await session.connection.query("select exists (select 1 from social.profiles where id = \(person.id))").scalar(Bool.self) else {
                throw CLIError("\(person.name) has no profile yet", fix: "let them finish signing up (claim a username) first")
            }
            let changed = try await session.connection.query(grant
                ? "insert into social.admins (user_id) values (\(person.id)) on conflict do nothing returning user_id"
                : "delete from social.admins where user_id = \(person.id) returning user_id").count > 0
            return (person, changed)
        }
        if invocation.json {
            struct Change: Encodable { var id: String; var username: String?; var admin: Bool; var changed: Bool }
            try invocation.console.json(Change(id: person.id.uuidString.lowercased(), username: person.username, admin: grant, changed: changed))
        } else if grant {
            invocation.console.out(changed ? "\(person.name) is now an admin" : "\(person.name) was already an admin")
        } else {
            invocation.console.out(changed ? "\(person.name) is no longer an admin" : "\(person.name) was not an admin")
        }
        return 0
    }

    static func asAdmin<T: Sendable>(
        _ invocation: Invocation, _ body: @Sendable (AppSession, Caller) async throws -> T
    ) async throws -> T {
        try await AppSession.with(try invocation.workspace()) { session in
            do {
                return try await body(session, try await session.adminCaller(invocation.value("--as")))
            } catch let refusal as RPCRefusal where refusal.code == "not_allowed" {
                throw CLIError("\(invocation.value("--as") ?? "that user") is not an admin",
                               fix: "leave out --as to act as the service role, or name someone in social.admins")
            } catch let refusal as RPCRefusal where refusal.code == "until_invalid" {
                throw CLIError("--until must be in the future", fix: "give a later time, or leave it out to suspend until lifted")
            }
        }
    }

    static func uuid(_ text: String, _ what: String, _ invocation: Invocation) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw CLIError.usage("\(what) must be an id (a uuid)", command: invocation.commandPath)
        }
        return id
    }
}
