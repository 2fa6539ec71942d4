import Foundation
import Postgres
import Push

/// `summit worker`: the relay and the sweeps, until interrupted.
enum WorkerCommand {
    static let command = Command(
        name: "worker",
        summary: "Run the realtime relay and the periodic sweeps until interrupted.",
        discussion: """
            Holds the relay's listening connection and removes live positions not heard from for 15 minutes \
            (every 5 minutes by default); every 2 minutes, pending meet requests past their expiry expire; with APNs \
            configured, every 5 seconds the push outbox is delivered (see summit push deliver). \
            Progress and figures go to standard error. With --once it sweeps once and exits, for running the \
            sweeps from cron instead.
            """,
        options: [
            .value("--sweep-every", "SECONDS", "how often to sweep expired live positions (default 300)"),
            .flag("--once", "sweep once, print how many positions were removed, and exit"),
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
            if invocation.flag("--once") {
                let (swept, expired) = try await PostgresConnection.withConnection(configuration, applicationName: "summit-worker") {
                    (try await Worker.sweepPresence(on: $0), try await Worker.sweepMeetRequests(on: $0))
                }
                if invocation.json {
                    try console.json(["swept": swept, "expired_meet_requests": expired])
                } else {
                    console.out("swept \(swept) expired live position\(swept == 1 ? "" : "s")")
                    console.out("expired \(expired) stale meet request\(expired == 1 ? "" : "s")")
                }
                return 0
            }
            let push = try invocation.value("--apns-config").map(APNsConfiguration.load(file:)) ?? APNsConfiguration.fromEnvironment()
            if push == nil { console.note("worker: APNs is not configured (APNS_* variables or --apns-config): push notifications wait in the outbox") }
            let worker = Worker(configuration, options: Worker.Options(presenceSweepInterval: interval, push: push)) { console.note($0) }
            let running = Task { try await worker.run() }
            // Interrupt or terminate: stop cleanly (close the relay, end the sweeps).
            let signals = [SIGINT, SIGTERM].map { signal in
                Foundation.signal(signal, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signal)
                source.setEventHandler { running.cancel() }
                source.resume()
                return source
            }
            defer { signals.forEach { $0.cancel() } }
            try await running.value
            return 0
        })
}
