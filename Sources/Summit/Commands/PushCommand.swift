import Foundation
import Postgres
import Push

/// `summit push …`: a user's devices for push notifications, and delivering the
/// push outbox to APNs.
enum PushCommand {
    static let command = Command(
        name: "push",
        summary: "Register devices for push notifications, deliver the push outbox to APNs, and inspect it.",
        discussion: """
            Friend requests, new friends, meet requests and started meets enqueue one notification per device of \
            the person to tell (never across a block), in the same transaction as the change. `summit push deliver` \
            and `summit worker` send them through APNs. APNs is configured in the environment (APNS_TEAM_ID, \
            APNS_KEY_ID, APNS_KEY_FILE or APNS_AUTH_KEY, APNS_TOPIC; see docs/push.md) or with --config FILE.
            """,
        subcommands: [devices, deliver, outbox])

    static let devices = Command(
        name: "devices",
        summary: "A user's devices: register, list, remove.",
        subcommands: [register, list, remove])

    static let register = Command(
        name: "register",
        summary: "Register TOKEN (an APNs device token, hex) as one of USER's devices.",
        discussion: """
            What the app does after iOS hands it a token. A token another user registered before moves to USER \
            (a phone gets the pushes of whoever signed in last). Example:
              summit push devices register 3f2a…c9 --as ann --environment sandbox
            """,
        arguments: [.init(name: "TOKEN", help: "the device token as hex, 64 to 200 characters")],
        options: [
            AppCommand.asOption,
            .value("--environment", "ENV", "sandbox or development (development builds), or production (App Store, TestFlight; default)"),
            .value("--platform", "NAME", "ios (default), ipados, macos, watchos or visionos"),
            AppCommand.jsonOption,
        ],
        run: { invocation in
            let environment = invocation.value("--environment") ?? "production"
            guard APNsEnvironment(rawValue: environment) != nil || environment == "development" else {
                throw CLIError.usage("--environment is sandbox (or development) or production, not \"\(environment)\"",
                                     command: invocation.commandPath)
            }
            let answer = try await AppCommand.acting(invocation) { session, me in
                try await session.call("social.register_device_token",
                                       [("p_token", invocation.arguments[0]), ("p_environment", environment),
                                        ("p_platform", invocation.value("--platform") ?? "ios")], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out("registered \(answer.json["platform"].string ?? "ios") device "
                                   + "\(shortToken(answer.json["token"].string ?? "")) (\(answer.json["environment"].string ?? environment))")
            return 0
        })

    static let list = Command(
        name: "list",
        summary: "Show USER's registered devices, newest first.",
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            let answer = try await AppCommand.acting(invocation) { session, me in
                try await session.call("social.my_device_tokens", as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            let rows = answer.json.array
            if rows.isEmpty { invocation.console.out("no devices: register one with summit push devices register TOKEN --as …") }
            for row in rows {
                invocation.console.out("\(row["token"].string ?? "")  \(row["platform"].string ?? "")  "
                                       + "\(row["environment"].string ?? "")  registered \(row["updated_at"].string ?? "")")
            }
            return 0
        })

    static let remove = Command(
        name: "remove",
        summary: "Remove TOKEN from USER's devices (signing out on that phone); its waiting notifications go too.",
        arguments: [.init(name: "TOKEN", help: "the device token as hex")],
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            let answer = try await AppCommand.acting(invocation) { session, me in
                try await session.call("social.unregister_device_token", [("p_token", invocation.arguments[0])], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            guard answer.json == .bool(true) else {
                throw CLIError("no device \(shortToken(invocation.arguments[0])) is registered to \(try invocation.required("--as"))",
                               fix: "see the registered ones with summit push devices list --as …")
            }
            invocation.console.out("removed device \(shortToken(invocation.arguments[0]))")
            return 0
        })

    static let deliver = Command(
        name: "deliver",
        summary: "Deliver the push outbox to APNs: once, or every few seconds until interrupted.",
        discussion: """
            Claims due notifications (several deliverers may run at once: each notification goes to one), sends \
            them over one HTTP/2 connection per APNs endpoint, up to APNS_CONCURRENCY at once (default 100), \
            and records APNs's answer: 200 delivered; 410 removes the dead device token; 429, \
            5xx, 403 and connection failures are retried with backoff (30 s doubling to an hour, jittered) until \
            the 8th attempt; other 4xx are given up. A failure never touches the change that enqueued it. \
            Progress goes to standard error.
            """,
        options: [
            .value("--config", "FILE", "APNs settings as JSON (team_id, key_id, key_file, topic, …) instead of APNS_* variables"),
            .flag("--once", "deliver what is due now, print the counts, and exit"),
            .value("--every", "SECONDS", "without --once: how often to look for due notifications (default 5)"),
            .value("--batch", "N", "how many notifications to claim at a time, 1 to 1000 (default 100)"),
            .flag("--json", "with --once: print the counts as JSON"),
        ],
        run: { invocation in
            let path = invocation.commandPath
            let once = invocation.flag("--once")
            if invocation.json && !once { throw CLIError.usage("--json goes with --once (the running deliverer only logs)", command: path) }
            let interval = try seconds(invocation.value("--every"), option: "--every", minimum: 0.5, command: path) ?? .seconds(5)
            let batch = try invocation.value("--batch").map { text -> Int in
                guard let count = Int(text), (1...1000).contains(count) else {
                    throw CLIError.usage("--batch takes a whole number from 1 to 1000, not \"\(text)\"", command: path)
                }
                return count
            } ?? 100
            let client = try APNsClient(try apnsConfiguration(invocation))
            let workspace = try invocation.workspace()
            let configuration = try await AppSession.with(workspace) { $0.connection.configuration }
            let console = invocation.console
            let worker = PushDelivery.workerName()
            if once {
                let counts = try await PostgresConnection.withConnection(configuration, applicationName: "summit-push") {
                    try await PushDelivery.deliverDue(on: $0, client: client, worker: worker, batch: batch)
                }
                await client.close()
                if invocation.json { try console.json(counts) } else { console.out(counts.summary) }
                return 0
            }
            console.note("push: delivering every \(Worker.describe(interval)) as \(worker); interrupt to stop")
            let running = Task {
                try await PostgresConnection.withConnection(configuration, applicationName: "summit-push") { db in
                    while !Task.isCancelled {
                        do {
                            let counts = try await PushDelivery.deliverDue(on: db, client: client, worker: worker, batch: batch)
                            if counts.claimed > 0 { console.note("push: " + counts.summary) }
                        } catch is CancellationError {
                            break
                        } catch {
                            console.note("push: delivery failed, trying again in \(Worker.describe(interval)): \(error)")
                        }
                        try? await Task.sleep(for: interval)
                    }
                }
            }
            let signals = InterruptSignals { running.cancel() }
            defer { signals.cancel() }
            try await running.value
            await client.close()
            console.note("push: stopped")
            return 0
        })

    static let outbox = Command(
        name: "outbox",
        summary: "How the push outbox stands: notifications by kind and status, and the next one due (as the service role).",
        options: [.flag("--json", "print the figures as JSON")],
        run: { invocation in
            let rows = try await AppSession.with(try invocation.workspace()) { session in
                try await session.connection.query("""
                    select kind, status, count(*)::int as count, min(next_attempt_at) filter (where status = 'pending') as next_due,
                           max(attempts) as most_attempts
                    from push.outbox group by kind, status order by kind, status
                    """, as: .serviceRole).decode(OutboxFigure.self)
            }
            if invocation.json {
                try invocation.console.json(rows)
                return 0
            }
            if rows.isEmpty { invocation.console.out("the push outbox is empty") }
            for row in rows {
                invocation.console.out("\(row.kind.padding(toLength: 15, withPad: " ", startingAt: 0)) "
                    + "\(row.status.padding(toLength: 10, withPad: " ", startingAt: 0)) \(row.count)"
                    + (row.nextDue.map { "  next due \(PostgresTimestamp.format($0))" } ?? "")
                    + (row.status == "pending" ? "  up to \(row.mostAttempts) attempt\(row.mostAttempts == 1 ? "" : "s") so far" : ""))
            }
            return 0
        })

    struct OutboxFigure: Codable, Sendable {
        var kind: String
        var status: String
        var count: Int
        var nextDue: Date?
        var mostAttempts: Int

        enum CodingKeys: String, CodingKey {
            case kind, status, count
            case nextDue = "next_due"
            case mostAttempts = "most_attempts"
        }
    }

    /// The APNs settings of `--config FILE`, else of the environment.
    static func apnsConfiguration(_ invocation: Invocation) throws -> APNsConfiguration {
        if let file = invocation.value("--config") { return try APNsConfiguration.load(file: file) }
        guard let configuration = try APNsConfiguration.fromEnvironment() else {
            throw CLIError("APNs is not configured", fix: "set APNS_TEAM_ID, APNS_KEY_ID, APNS_KEY_FILE and APNS_TOPIC "
                           + "(see docs/push.md), or pass --config FILE")
        }
        return configuration
    }

    static func seconds(_ text: String?, option: String, minimum: Double, command: String) throws -> Duration? {
        guard let text else { return nil }
        guard let seconds = Double(text), seconds >= minimum else {
            throw CLIError.usage("\(option) takes a number of seconds, at least \(minimum.formatted()), not \"\(text)\"", command: command)
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    static func shortToken(_ token: String) -> String {
        token.count > 16 ? token.prefix(8) + "…" + token.suffix(6) : token
    }
}
