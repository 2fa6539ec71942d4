import Foundation
import MeetSolver
import Postgres

extension MeetCommand {
    static let requestArgument = Command.Argument(name: "REQUEST", help: "the meet request's id")

    static let accept = Command(
        name: "accept",
        summary: "Accept a meet request as its receiver, after re-validating it against its exact dataset.",
        discussion: """
            The request's exact dataset identity is fetched (not the resort's current one), its status must be \
            usable, the meeting point must be in that dataset's catalog, and the stored routes must hold \
            all-or-nothing. If USER's own route no longer holds (a closure since), it is re-solved strictly \
            from the same exact start to the same meeting point; if that fails nothing is accepted.
            """,
        arguments: [requestArgument],
        options: [AppCommand.asOption, .value("--weather", "FILE", "an Open-Meteo forecast to re-cost with"), jsonOption],
        run: { invocation in
            let conditions = try invocation.value("--weather").map { try weather(from: $0) }
            let (activation, answer, request) = try await AppSession.with(try invocation.workspace()) { session in
                let me = try await session.caller(try invocation.required("--as"))
                let request = try await fetchRequest(invocation.arguments[0], session: session, as: me)
                guard request.receiverId == me.person.id else {
                    throw CLIError("only the receiver accepts a meet request, and \(me.person.name) sent this one",
                                   fix: "accept it as the friend it was sent to")
                }
                guard request.status == "pending" else {
                    throw CLIError("this meet request is \(request.status), not pending", fix: "plan and send a new one")
                }
                let other = try await session.person(request.senderId.uuidString)
                let activation = try await MeetActivation.activate(request, for: me.person, other: other, in: session,
                                                                   as: me.caller, conditions: conditions)
                let answer = try await session.call("meet.accept_meet_request", [("p_request_id", request.id)], as: me.caller)
                if activation.mine.replacedBecause != nil {
                    let start = me.person.id == request.senderId ? request.senderStart : request.receiverStart
                    try await session.call("meet.update_my_route", [
                        ("p_request_id", request.id), ("p_start", PostgresJSON(start)), ("p_path_edge_ids", activation.mine.edgeIds),
                        ("p_eta_seconds", activation.mine.etaSeconds), ("p_eta_std_seconds", activation.mine.etaStdSeconds),
                    ], as: me.caller)
                }
                return (activation, answer, request)
            }
            if invocation.json {
                try invocation.console.json(ActivationPrintout(request: request.id.uuidString.lowercased(), status: answer.json["status"].string ?? "",
                                                               meetingPoint: request.meetingNodeDisplayName,
                                                               datasetVersion: activation.world.identity.datasetVersion,
                                                               mine: activation.mine, theirs: activation.theirs))
                return 0
            }
            invocation.console.out("accepted: meet \(activation.theirs.user) at \(request.meetingNodeDisplayName) [\(request.rendezvousPointId)] "
                                   + "on \(activation.world.identity.datasetVersion)")
            printSides(activation, invocation.console)
            return 0
        })

    static let decline = Command(
        name: "decline",
        summary: "Decline a pending meet request as its receiver.",
        arguments: [requestArgument],
        options: [AppCommand.asOption, jsonOption],
        run: { invocation in
            let answer = try await AppCommand.acting(invocation) { session, me in
                let id = try requestID(invocation.arguments[0])
                return try await session.call("meet.decline_meet_request", [("p_request_id", id)], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out("declined meet request \(answer.json["id"].string ?? "")")
            return 0
        })

    static let end = Command(
        name: "end",
        summary: "End a meet (cancel it while pending): the intent is saved first, so it wins over recovery until the server takes it.",
        discussion: """
            Two steps, as the app does it: save a termination tombstone for USER, then end the request; the \
            tombstone goes only with the end, in the same transaction. If the end does not get through, \
            `summit meet recover` retries it before anything is restored.
            """,
        arguments: [requestArgument],
        options: [AppCommand.asOption, jsonOption],
        run: { invocation in
            let answer = try await AppCommand.acting(invocation) { session, me in
                let id = try requestID(invocation.arguments[0])
                try await session.call("meet.save_end_intent", [("p_request_id", id)], as: me.caller)
                return try await session.call("meet.end_meet_request", [("p_request_id", id)], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out("meet request \(answer.json["id"].string ?? "") is \(answer.json["status"].string ?? "")")
            return 0
        })

    static let recover = Command(
        name: "recover",
        summary: "What a phone does on a cold start: retry saved end intents, then restore the newest accepted meet of the last 4 hours.",
        discussion: """
            Only a meet whose full dataset identity is present is restored, and it is activated the normal \
            strict way: that exact dataset, usable status, the stored route or a strict re-solve.
            """,
        options: [AppCommand.asOption, .value("--weather", "FILE", "an Open-Meteo forecast to re-cost with"), jsonOption],
        run: { invocation in
            let conditions = try invocation.value("--weather").map { try weather(from: $0) }
            let (retried, recovered) = try await AppSession.with(try invocation.workspace()) { session in
                let me = try await session.caller(try invocation.required("--as"))
                let intents = try await session.call("meet.pending_end_intents", as: me.caller, shape: .rows)
                var retried: [String] = []
                for intent in intents.json.array {
                    guard let id = intent["request_id"].uuid else { continue }
                    try await session.call("meet.end_meet_request", [("p_request_id", id)], as: me.caller)
                    retried.append(id.uuidString.lowercased())
                }
                let rows = try await session.call("meet.recover_meet_request", as: me.caller, shape: .rows)
                guard let request = try JSONDecoder().decode([MeetRequestRow].self, from: Data(rows.text.utf8)).first else {
                    return (retried, nil as (MeetRequestRow, MeetActivation)?)
                }
                let otherID = request.senderId == me.person.id ? request.receiverId : request.senderId
                let other = try await session.person(otherID.uuidString)
                let activation = try await MeetActivation.activate(request, for: me.person, other: other, in: session,
                                                                   as: me.caller, conditions: conditions)
                return (retried, (request, activation))
            }
            if invocation.json {
                try invocation.console.json(RecoveryPrintout(endedAgain: retried, recovered: recovered.map { request, activation in
                    ActivationPrintout(request: request.id.uuidString.lowercased(), status: request.status, meetingPoint: request.meetingNodeDisplayName,
                                       datasetVersion: activation.world.identity.datasetVersion, mine: activation.mine, theirs: activation.theirs)
                }))
                return 0
            }
            for id in retried { invocation.console.out("ended meet request \(id) (a saved end intent)") }
            guard let (request, activation) = recovered else {
                invocation.console.out("no meet to recover")
                return 0
            }
            invocation.console.out("recovered meet \(request.id.uuidString.lowercased()) with \(activation.theirs.user) at "
                                   + "\(request.meetingNodeDisplayName) [\(request.rendezvousPointId)] on \(activation.world.identity.datasetVersion)")
            printSides(activation, invocation.console)
            return 0
        })

    static let list = Command(
        name: "list",
        summary: "USER's meet requests, newest first.",
        options: [AppCommand.asOption, jsonOption],
        run: { invocation in
            let rows = try await AppCommand.acting(invocation) { session, me in
                try await session.connection.acting(as: me.caller) { db in
                    // Other people's names as the app knows them: friends' from the social snapshot.
                    var names = [me.person.id.uuidString.lowercased(): me.person.name]
                    let snapshot = try JSONValue(parsing: try await db.query("select social.get_social_snapshot()::text").scalar(String.self))
                    for friend in snapshot["friends"].array {
                        if let id = friend["user_id"].uuid, let name = friend["username"].string { names[id.uuidString.lowercased()] = name }
                    }
                    let raw = try await db.query("""
                        select r.id::text as id, r.status, r.sender_id::text as sender, r.receiver_id::text as receiver, r.resort_id,
                               r.meeting_node_display_name as meeting_point,
                               to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
                        from meet.meet_requests r order by r.created_at desc, r.id limit 50
                        """).decode(ListRow.self)
                    return raw.map { row in
                        var named = row
                        named.sender = names[row.sender] ?? row.sender
                        named.receiver = names[row.receiver] ?? row.receiver
                        return named
                    }
                }
            }
            if invocation.json { try invocation.console.json(rows); return 0 }
            if rows.isEmpty { invocation.console.out("no meet requests") }
            for row in rows {
                invocation.console.out("\(row.id)  \(row.status.padding(toLength: 8, withPad: " ", startingAt: 0))  \(row.sender) → \(row.receiver)  "
                                       + "\(row.resortId): \(row.meetingPoint)  \(row.createdAt)")
            }
            return 0
        })

    // MARK: - Helpers

    struct ListRow: Codable, Sendable {
        var id: String
        var status: String
        var sender: String
        var receiver: String
        var resortId: String
        var meetingPoint: String
        var createdAt: String
    }

    struct ActivationPrintout: Encodable {
        var request: String
        var status: String
        var meetingPoint: String
        var datasetVersion: String
        var mine: MeetActivation.Side
        var theirs: MeetActivation.Side

        enum CodingKeys: String, CodingKey {
            case request, status, mine, theirs
            case meetingPoint = "meeting_point"
            case datasetVersion = "dataset_version"
        }
    }

    struct RecoveryPrintout: Encodable {
        var endedAgain: [String]
        var recovered: ActivationPrintout?

        enum CodingKeys: String, CodingKey {
            case recovered
            case endedAgain = "ended_again"
        }
    }

    static func requestID(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
            throw CLIError("\(text) is not a meet request id", fix: "give the id `summit meet send` or `summit meet list` printed")
        }
        return id
    }

    static func fetchRequest(_ text: String, session: AppSession, as me: (caller: Caller, person: AppSession.Person)) async throws -> MeetRequestRow {
        let id = try requestID(text)
        let json = try await session.connection.acting(as: me.caller) { db in
            try await db.query("select to_jsonb(r)::text from meet.meet_requests r where r.id = \(id)").first(as: String.self)
        }
        guard let json else {
            throw CLIError("no meet request \(text) involves \(me.person.name)", fix: "list yours with summit meet list --as \(me.person.name)")
        }
        return try MeetRequestRow(json: json)
    }

    static func printSides(_ activation: MeetActivation, _ console: Console) {
        for side in [activation.mine, activation.theirs] {
            let note = side.replacedBecause.map { side.user == activation.mine.user ? " (re-solved: \($0))" : " (their stored route no longer holds: \($0); their phone re-solves it)" } ?? ""
            console.out("  \(side.user): \(MeetPlanPrintout.duration(side.etaSeconds)) ± \(MeetPlanPrintout.duration(side.etaStdSeconds)) "
                        + "over \(side.edgeIds.count) edges\(note)")
        }
    }
}
