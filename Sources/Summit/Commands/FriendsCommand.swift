import Foundation
import Postgres

/// `summit friends …`: the social RPCs as one user.
///
/// Answers are worded from the caller's side only: a request to someone who
/// blocked you reads "sent", exactly as the app shows it, so the command line
/// leaks nothing the RPCs hide.
enum FriendsCommand {
    static let command = Command(
        name: "friends",
        summary: "Friend requests, friends, blocks, and friend codes and links, as one user.",
        discussion: "Every command acts as the user named by --as, through the same RPCs the apps call.",
        subcommands: [list, request, accept, remove, block, code, link, redeem])

    static let list = Command(
        name: "list",
        summary: "Show USER's friends, pending requests both ways, and blocks.",
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            let answer = try await AppCommand.acting(invocation) { session, me in
                try await session.call("social.get_social_snapshot", as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            let json = answer.json
            let console = invocation.console
            let names = { (items: JSONValue) in items.array.compactMap { $0["username"].string }.joined(separator: ", ") }
            console.out("friends:   " + (json["friends"].array.isEmpty ? "none" : names(json["friends"])))
            console.out("requests:  " + (json["incoming"].array.isEmpty ? "none" : "from " + names(json["incoming"])))
            console.out("sent:      " + (json["outgoing"].array.isEmpty ? "none" : "to " + names(json["outgoing"])))
            console.out("blocked:   " + (json["blocks"].array.isEmpty ? "none" : names(json["blocks"])))
            return 0
        })

    static let request = Command(
        name: "request",
        summary: "Send a friend request to OTHER (or accept theirs, if they already sent one).",
        arguments: [.init(name: "OTHER", help: "a username, email or user id")],
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            let (answer, other) = try await AppCommand.actingOn(invocation) { session, me, other in
                try await session.call("social.send_friend_request", [("p_user_id", other.id)], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            switch answer.json.string {
            case "friends":
                invocation.console.out("you and \(other.name) are friends")
            case "blocked":
                throw CLIError("you blocked \(other.name), so no request was sent",
                               fix: "unblock them first: summit friends block \(other.name) --undo --as …")
            default:
                invocation.console.out("request sent to \(other.name)")
            }
            return 0
        })

    static let accept = Command(
        name: "accept",
        summary: "Accept (or with --decline, decline) OTHER's pending friend request.",
        arguments: [.init(name: "OTHER", help: "who sent the request")],
        options: [AppCommand.asOption, .flag("--decline", "decline instead; the sender is not told"), AppCommand.jsonOption],
        run: { invocation in
            let (answer, other) = try await AppCommand.actingOn(invocation) { session, me, other in
                let snapshot = try await session.call("social.get_social_snapshot", as: me.caller)
                if snapshot.json["friends"].array.contains(where: { $0["user_id"].uuid == other.id }) {
                    return AppSession.Answer(text: "\"friends\"", json: .string("friends"))
                }
                guard let requestID = snapshot.json["incoming"].array
                    .first(where: { $0["user_id"].uuid == other.id })?["request_id"].uuid
                else {
                    throw CLIError("\(me.person.name) has no pending friend request from \(other.name)",
                                   fix: "ask them to send one: summit friends request \(me.person.name) --as \(other.name)")
                }
                return try await session.call("social.respond_friend_request",
                                              [("p_request_id", requestID), ("p_accept", !invocation.flag("--decline"))],
                                              as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out(answer.json.string == "friends" ? "you and \(other.name) are friends"
                                                                   : "declined \(other.name)'s request")
            return 0
        })

    static let remove = Command(
        name: "remove",
        summary: "Stop being friends with OTHER (silently; nothing happens if you were not friends).",
        arguments: [.init(name: "OTHER", help: "a username, email or user id")],
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            let (answer, other) = try await AppCommand.actingOn(invocation) { session, me, other in
                try await session.call("social.remove_friend", [("p_user_id", other.id)], as: me.caller, shape: .none)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out("you and \(other.name) are not friends")
            return 0
        })

    static let block = Command(
        name: "block",
        summary: "Block OTHER: it ends the friendship and pending requests, and hides you from each other.",
        arguments: [.init(name: "OTHER", help: "a username, email or user id")],
        options: [AppCommand.asOption, .flag("--undo", "unblock instead (restores nothing but visibility)"), AppCommand.jsonOption],
        run: { invocation in
            let undo = invocation.flag("--undo")
            let (answer, other) = try await AppCommand.actingOn(invocation) { session, me, other in
                try await session.call(undo ? "social.unblock_user" : "social.block_user", [("p_user_id", other.id)],
                                       as: me.caller, shape: .none)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out(undo ? "unblocked \(other.name)" : "blocked \(other.name)")
            return 0
        })

    static let code = Command(
        name: "code",
        summary: "Make a friend code for a QR code: it works once, for 24 hours.",
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in try await makeCode(kind: "qr", invocation) })

    static let link = Command(
        name: "link",
        summary: "Make a friend link: it works once, for 7 days.",
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in try await makeCode(kind: "link", invocation) })

    static func makeCode(kind: String, _ invocation: Invocation) async throws -> Int32 {
        let answer = try await AppCommand.acting(invocation) { session, me in
            try await session.call("social.create_friend_code", [("p_kind", kind)], as: me.caller)
        }
        if invocation.json { return AppCommand.print(answer, invocation) }
        let json = answer.json
        let code = json["code"].string ?? ""
        invocation.console.out(kind == "link" ? "\(json["path"].string ?? "/f/\(code)")  (code \(code), expires \(json["expires_at"].string ?? "?"))"
                                              : "\(code)  (expires \(json["expires_at"].string ?? "?"))")
        invocation.console.note("redeem it with: summit friends redeem \(code) --as OTHER")
        return 0
    }

    static let redeem = Command(
        name: "redeem",
        summary: "Redeem a friend code or link: you become friends with its owner at once.",
        arguments: [.init(name: "CODE", help: "the code, or a link ending in /f/CODE")],
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            let answer = try await AppCommand.acting(invocation) { session, me in
                try await session.call("social.redeem_friend_code", [("p_code", invocation.arguments[0])], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            let json = answer.json
            switch json["status"].string {
            case "friends":
                invocation.console.out("you and \(json["username"].string ?? "its owner") are friends")
            case "already_friends":
                invocation.console.out("you and \(json["username"].string ?? "its owner") were already friends; the code is still unused")
            case "own_code":
                throw CLIError("that is your own code", fix: "give it to someone else to redeem")
            default:
                throw CLIError("that code is not valid: unknown, expired, already used or revoked",
                               fix: "ask for a new one (summit friends link --as OWNER)")
            }
            return 0
        })
}
