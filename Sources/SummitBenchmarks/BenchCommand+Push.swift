import Foundation
import Push
import Summit

extension BenchCommand {
    static let push = Command(
        name: "push",
        summary: "APNs notifications/s on one HTTP/2 connection: one request at a time against the multiplexed default, side by side.",
        discussion: """
            Starts the APNs stand-in (Tests/APNsStandIn, in the gateway's virtualenv) answering each request \
            DELAY ms after it came, as an APNs a round trip away does, and sends it notifications for S seconds \
            on one connection twice: one at a time (what the hand-written client did on each of its \
            connections), then CONCURRENCY at once as HTTP/2 streams (the APNS_CONCURRENCY default). Prints \
            both rates, the connections each run used and the most streams the stand-in had open at once, and \
            the ratio. No database is touched. Progress goes to standard error.
            """,
        options: [
            .value("--seconds", "S", "how long each run sends (default 5)"),
            .value("--delay-ms", "DELAY", "how long the stand-in waits before each answer (default 50)"),
            .value("--concurrency", "N", "streams in flight in the multiplexed run, 1 to 1000 (default \(APNsConfiguration.defaultConcurrency))"),
            .flag("--tls", "over TLS with ALPN h2 (a certificate made for the run) instead of h2c"),
            .flag("--json", "print the measurements as JSON"),
        ],
        run: { invocation in
            var settings = PushBenchmark.Settings()
            settings.seconds = try invocation.number("--seconds", default: settings.seconds, minimum: 0.5)
            settings.delayMilliseconds = try invocation.number("--delay-ms", default: settings.delayMilliseconds, minimum: 0)
            settings.concurrency = try invocation.wholeNumber("--concurrency", default: settings.concurrency)
            guard APNsConfiguration.concurrencyRange.contains(settings.concurrency) else {
                throw CLIError.usage("--concurrency takes 1 to \(APNsConfiguration.concurrencyRange.upperBound), not \(settings.concurrency)",
                                     command: invocation.commandPath)
            }
            settings.tls = invocation.flag("--tls")
            let console = invocation.console
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("summit-bench-push-" + UUID().uuidString.prefix(8))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try await PushBenchmark(settings).run(workspace: try invocation.workspace().root, folder: folder) { console.note($0) }
            if invocation.json { try console.json(result) } else { console.out(pushTable(result)) }
            for figure in [result.oneAtATime, result.multiplexed] where figure.failed > 0 {
                console.note("⚠️  \(figure.failed) of the notifications \(figure.concurrency) at a time were not delivered "
                             + "(the figures count delivered ones only); the first: \(figure.firstFailure ?? "?")")
            }
            return 0
        })

    static func pushTable(_ result: PushBenchmark.Result) -> String {
        let header = ["", "in flight", "delivered", "seconds", "notifications/s", "connections", "most open at once"]
        func row(_ name: String, _ figure: PushBenchmark.Figure) -> [String] {
            [name, String(figure.concurrency), figure.delivered.formatted(), String(format: "%.2f", figure.seconds),
             figure.notificationsPerSecond.formatted(.number.precision(.fractionLength(1))), String(figure.connections), String(figure.mostInFlight)]
        }
        let rows = [row("one at a time (the old client)", result.oneAtATime), row("multiplexed streams", result.multiplexed)]
        return ([
            "APNs stand-in on loopback over \(result.transport), answering \(result.delayMilliseconds.formatted()) ms after each request; "
                + "one connection per run",
            "",
        ] + TextTable.lines([header] + rows) + [
            "",
            "multiplexed / one at a time: \(String(format: "%.1f", result.ratio))x",
        ] + ceiling(result)).joined(separator: "\n")
    }

    /// What the delay alone allows, so a rate below it shows where the time went (the stand-in is one Python thread).
    static func ceiling(_ result: PushBenchmark.Result) -> [String] {
        guard result.delayMilliseconds > 0 else { return [] }
        func most(_ figure: PushBenchmark.Figure) -> String {
            (Double(figure.concurrency) * 1000 / result.delayMilliseconds).formatted(.number.precision(.fractionLength(0...1)))
        }
        return ["at \(result.delayMilliseconds.formatted()) ms a round trip one connection carries at most \(most(result.oneAtATime))/s "
                + "one at a time and \(most(result.multiplexed))/s with \(result.multiplexed.concurrency) in flight"]
    }
}
