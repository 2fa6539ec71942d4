import Foundation
import MeetSolver
import MountainGraph
import Postgres

/// `summit meet …`: PowderMeet's meeting point and meet requests, as one user.
enum MeetCommand {
    static let command = Command(
        name: "meet",
        summary: "Plan the fairest meeting point with a friend, and send, accept, decline, end or recover meet requests.",
        discussion: """
            Plans run on the resort's published canonical dataset with its current status sidecar; without \
            --start/--friend-start each skier starts from their newest shared live position, which must be \
            routing-grade (under 75 s old, accurate to 50 m, at this resort). A strict plan never relaxes \
            closures, ability, dataset identity or exact starts: it answers with the reason instead.
            """,
        subcommands: [plan, send, accept, decline, end, recover, list])

    static let friendOption = Command.Option.value("--friend", "USER", "the friend to meet: a username, email or user id (required)")
    static let resortOption = Command.Option.value("--resort", "R", "the resort id (required)")
    static let planOptions: [Command.Option] = [
        AppCommand.asOption, friendOption, resortOption,
        .value("--at", "TIME", "plan at this instant (ISO-8601, e.g. 2026-01-14T09:30:00Z) instead of now"),
        .value("--start", "START", "where USER starts: n123, t45@0.25 (a quarter along edge t45) or LAT,LON; default: their live position"),
        .value("--friend-start", "START", "where the friend starts, the same way; default: their live position"),
        .value("--accuracy", "M", "GPS accuracy of given starts, metres (widens the ETA uncertainty)"),
        .value("--weather", "FILE", "an Open-Meteo forecast (timeformat=unixtime) to plan with; default: the conditions stored by `summit weather refresh`, else neutral"),
    ]
    static let jsonOption = Command.Option.flag("--json", "print the result as JSON")

    static let plan = Command(
        name: "plan",
        summary: "Rank the meeting points for USER and a friend, with both routes step by step, or say why there is none.",
        discussion: "Exits with status 3 when there is no meeting point (the reason is printed). Example: summit meet plan --resort demo-7 --as ann --friend bob --geojson meet.geojson",
        options: planOptions + [
            .value("--geojson", "FILE", "also write the resort, both routes and the meeting points as GeoJSON"),
            .value("--svg", "FILE", "also draw the resort, both routes and the meeting point as an SVG picture"),
            jsonOption,
        ],
        run: { invocation in
            let (planned, names) = try await AppSession.with(try invocation.workspace()) { session in
                let planning = try await planning(invocation, in: session)
                return (planning.planned, planning.names)
            }
            let printout = MeetPlanPrintout(world: planned.world, solver: planned.solver, names: names, outcome: planned.outcome,
                                            solveDuration: planned.solveDuration)
            try writeFiles(invocation, planned, names: names)
            if invocation.json { try invocation.console.json(printout) } else { invocation.console.out(printout.text) }
            return planned.outcome.value == nil ? 3 : 0
        })

    static let send = Command(
        name: "send",
        summary: "Plan as `meet plan` does and send the best meeting point (or --rendezvous RP) to the friend as a meet request.",
        discussion: """
            The request carries the dataset identity, both exact starts and both full routes with ETAs and their \
            standard deviations. If the friend already sent USER a pending request, that one is accepted instead.
            """,
        options: planOptions + [
            .value("--rendezvous", "RP", "send this ranked option (its rendezvous point id) instead of the best"),
            jsonOption,
        ],
        run: { invocation in
            let (answer, chosen, friendName) = try await AppSession.with(try invocation.workspace()) { session in
                let planning = try await planning(invocation, in: session)
                let planned = planning.planned
                guard case let .success(result) = planned.outcome else {
                    let failure = planned.outcome.error!
                    throw CLIError("no meet request was sent: \(failure.code) — \(failure.explanation)",
                                   fix: "see `summit meet plan` for the details")
                }
                let options = [result.primary] + result.alternates
                var chosen = result.primary
                if let wanted = invocation.value("--rendezvous") {
                    guard let match = options.first(where: { $0.rendezvousPointID == wanted }) else {
                        throw CLIError("\(wanted) is not among the ranked meeting points (\(options.map(\.rendezvousPointID).joined(separator: ", ")))",
                                       fix: "pick one of those, or leave --rendezvous out for the best")
                    }
                    chosen = match
                }
                let request = MeetRequestPlan(world: planned.world, option: chosen, senderAccuracy: accuracy(of: planned.starts[0]),
                                              receiverAccuracy: accuracy(of: planned.starts[1]))
                let answer = try await session.call("meet.send_meet_request",
                                                    [("p_receiver_id", planning.friend.id), ("p_plan", PostgresJSON(request))],
                                                    as: planning.caller)
                return (answer, chosen, planning.friend.name)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            let id = answer.json["request"]["id"].string ?? "?"
            if answer.json["auto_accepted"].bool == true {
                invocation.console.out("\(friendName) had already asked: accepted their meet request \(id) at \(answer.json["request"]["meeting_node_display_name"].string ?? "")")
            } else {
                invocation.console.out("sent meet request \(id) to \(friendName): meet at \(chosen.displayName) [\(chosen.rendezvousPointID)], "
                                       + "you in \(MeetPlanPrintout.duration(chosen.routeA.eta)) ± \(MeetPlanPrintout.duration(chosen.routeA.etaStd)), "
                                       + "\(friendName) in \(MeetPlanPrintout.duration(chosen.routeB.eta)) ± \(MeetPlanPrintout.duration(chosen.routeB.etaStd)); "
                                       + "it expires in 30 min")
                invocation.console.out("next: summit meet accept \(id) --as \(friendName)")
            }
            return 0
        })

    // MARK: - Shared

    /// What planning produced, and for whom.
    struct PlanningResult: Sendable {
        var planned: MeetPlanning.Planned
        var names: [String: String]
        var caller: Caller
        var friend: AppSession.Person
    }

    /// Parses the plan options and plans as `--as`.
    static func planning(_ invocation: Invocation, in session: AppSession) async throws -> PlanningResult {
        let resort = try invocation.required("--resort").trimmingCharacters(in: .whitespaces)
        let at = try invocation.value("--at").map { text -> Double in
            guard let instant = MountainStatus.parseInstant(text) else {
                throw CLIError.usage("--at \(text) is not a time; write it like 2026-01-14T09:30:00Z", command: invocation.commandPath)
            }
            return instant
        }
        let accuracy = try invocation.value("--accuracy").map { text -> Double in
            guard let value = Double(text), value > 0, value <= 10_000 else {
                throw CLIError.usage("--accuracy needs metres above 0 (at most 10000)", command: invocation.commandPath)
            }
            return value
        }
        let conditions = try invocation.value("--weather").map { try weather(from: $0) }
        let me = try await session.caller(try invocation.required("--as"))
        let friend = try await session.person(try invocation.required("--friend"))
        let planning = MeetPlanning(session: session, me: me.person, friend: friend, caller: me.caller)
        let planned = try await planning.plan(resortID: resort, at: at, myStart: invocation.value("--start"),
                                              friendStart: invocation.value("--friend-start"), accuracy: accuracy,
                                              conditions: conditions)
        return PlanningResult(planned: planned, names: planning.names, caller: me.caller, friend: friend)
    }

    static func weather(from path: String) throws -> ResortConditions {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CLIError("cannot read the forecast \(path)", fix: "give the path of an Open-Meteo JSON answer (timeformat=unixtime)")
        }
        do {
            return try ResortConditions(openMeteoJSON: Array(data))
        } catch {
            throw CLIError("\(path): \(error.message)", fix: "request the forecast with timeformat=unixtime and the current and hourly fields")
        }
    }

    static func accuracy(of start: SkierStart) -> Double? {
        if case let .fix(fix) = start.origin { return fix.accuracyMeters ?? start.accuracyMeters }
        return start.accuracyMeters
    }

    /// `--geojson` and `--svg`.
    static func writeFiles(_ invocation: Invocation, _ planned: MeetPlanning.Planned, names: [String: String]) throws {
        let picture = MeetPicture(graph: planned.solver.liveGraph, result: planned.outcome.value, names: names,
                                  title: "\(planned.world.identity.resortID) \(planned.world.identity.datasetVersion.prefix(20))…")
        if let path = invocation.value("--geojson") {
            try ResortFiles.write(picture.geoJSON(), to: URL(fileURLWithPath: path), what: "GeoJSON")
            invocation.console.note("wrote the resort, the routes and the meeting points to \(path)")
        }
        if let path = invocation.value("--svg") {
            try ResortFiles.write(Array(picture.svg().utf8), to: URL(fileURLWithPath: path), what: "SVG picture")
            invocation.console.note("drew the meet in \(path)")
        }
    }
}
