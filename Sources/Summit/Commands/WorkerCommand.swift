import Foundation
import Postgres
import Push

/// `summit worker`: the relay and the sweeps, until interrupted.
enum WorkerCommand {
    static let command = Command(
        name: "worker",
        summary: "Run the realtime relay and the periodic sweeps until interrupted.",
        discussion: """
            Holds the relay's listening connection and runs the periodic jobs: live positions not heard from for \
            15 minutes are removed (every 5 minutes by default); every 2 minutes, pending meet requests past their \
            expiry expire; every minute, configured status feeds due for a refresh (within two minutes of expiry, \
            failures retried after five minutes) and forecasts due for their hourly merge are refreshed (see \
            `summit feeds`); with APNs configured (APNS_* variables or --apns-config), every 10 seconds the push \
            outbox is delivered (see `summit push deliver`). Each job runs under a lease in PostgreSQL, so several \
            workers never run one at once. \
            Progress and figures go to standard error. With --once every job runs once and the command exits, for \
            running them from cron instead.
            """,
        options: [
            .value("--sweep-every", "SECONDS", "how often to sweep expired live positions (default 300)"),
            .flag("--once", "run every job once (sweeps, due feed refreshes), print what they did, and exit"),
            .flag("--json", "with --once: print the result as JSON"),
            .value("--apns-config", "FILE", "deliver push notifications with these APNs settings (default: the APNS_* variables, if set)"),
        ],
        run: { invocation in
            let path = invocation.commandPath
            let interval = try invocation.value("--sweep-every").map { text -> Duration in
                guard let seconds = Double(text), seconds >= 1 else {
                    throw CLIError.usage("--sweep-every takes a number of seconds, at least 1, not \"\(text)\"", command: path)
                }
                return .milliseconds(Int64(seconds * 1000))
            } ?? .seconds(300)
            if invocation.json && !invocation.flag("--once") {
                throw CLIError.usage("--json goes with --once (the running worker only logs)", command: path)
            }
            let workspace = try invocation.workspace()
            let configuration = try await AppSession.with(workspace) { $0.connection.configuration }
            let console = invocation.console
            let push = try invocation.value("--apns-config").map(APNsConfiguration.load(file:)) ?? APNsConfiguration.fromEnvironment()
            if push == nil { console.note("worker: APNs is not configured (APNS_* variables or --apns-config): push notifications wait in the outbox") }
            let outboxDelivery = try push.map { PushDelivery.scheduledJob(client: try APNsClient($0)) }
            if invocation.flag("--once") {
                let outcomes = try await runOnce(configuration, outboxDelivery: outboxDelivery, log: { console.note($0) })
                if invocation.json {
                    try console.json(outcomes)
                } else {
                    console.out("swept \(outcomes.swept) expired live position\(outcomes.swept == 1 ? "" : "s")")
                    console.out("expired \(outcomes.expiredMeetRequests) stale meet request\(outcomes.expiredMeetRequests == 1 ? "" : "s")")
                    for (job, outcome) in outcomes.jobs.sorted(by: { $0.key < $1.key })
                    where !["presence-sweep", "meet-request-expiry"].contains(job) || outcome.hasPrefix("skipped") {
                        console.out("\(job): \(outcome)")
                    }
                }
                return 0
            }
            let worker = Worker(configuration, options: Worker.Options(presenceSweepInterval: interval, outboxDelivery: outboxDelivery)) {
                console.note($0)
            }
            let running = Task { try await worker.run() }
            // Interrupt or terminate: stop cleanly (close the relay, end the sweeps).
            let signals = InterruptSignals { running.cancel() }
            defer { signals.cancel() }
            try await running.value
            return 0
        })
}

extension WorkerCommand {
    /// What `--once` did.
    struct OnceOutcomes: Encodable, Sendable {
        var swept: Int
        var expiredMeetRequests: Int
        /// Job name → its summary, or why it did not run.
        var jobs: [String: String]

        enum CodingKeys: String, CodingKey {
            case swept, jobs
            case expiredMeetRequests = "expired_meet_requests"
        }
    }

    /// Every job once, each under its lease (a job another worker is running right now is skipped).
    static func runOnce(_ configuration: PostgresConfiguration, outboxDelivery: ScheduledJob.Body? = nil,
                        log: @escaping @Sendable (String) -> Void) async throws -> OnceOutcomes {
        let counts = OnceCounts()
        var jobs = Worker.jobs(Worker.Options(outboxDelivery: outboxDelivery), log: log).map { job -> ScheduledJob in
            var once = job
            once.every = .zero
            once.jitter = 0
            return once
        }
        for index in jobs.indices {
            switch jobs[index].name {
            case "presence-sweep":
                jobs[index].body = { db in
                    let swept = try await Worker.sweepPresence(on: db)
                    counts.set(swept: swept)
                    return "swept \(swept)"
                }
            case "meet-request-expiry":
                jobs[index].body = { db in
                    let expired = try await Worker.sweepMeetRequests(on: db)
                    counts.set(expired: expired)
                    return "expired \(expired)"
                }
            default: break
            }
        }
        return try await PostgresConnection.withConnection(configuration, applicationName: "summit-worker") { db in
            let scheduler = Scheduler(connection: db, jobs: jobs, workerName: "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier) once")
            var outcomes: [String: String] = [:]
            for job in jobs {
                switch await scheduler.runOnce(job.name) {
                case let .ran(summary): outcomes[job.name] = summary.isEmpty ? "nothing due" : summary
                case let .failed(problem): throw CLIError("the \(job.name) job failed: \(problem)", fix: "see the message; run it again")
                case .leaseHeld: outcomes[job.name] = "skipped: another worker is running it"
                case .notDue: outcomes[job.name] = "skipped: another worker just ran it"
                }
            }
            let (swept, expired) = counts.values
            return OnceOutcomes(swept: swept, expiredMeetRequests: expired, jobs: outcomes)
        }
    }
}

/// The sweeps' counts, set from inside the jobs.
private final class OnceCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var swept = 0
    private var expired = 0

    func set(swept value: Int) { lock.withLock { swept = value } }
    func set(expired value: Int) { lock.withLock { expired = value } }
    var values: (Int, Int) { lock.withLock { (swept, expired) } }
}
