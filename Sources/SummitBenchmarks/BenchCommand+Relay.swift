import Foundation
import Summit
import Postgres

extension BenchCommand {
    static let relay = Command(
        name: "relay",
        summary: "The raw pg_notify ceiling against broadcast_position plus the relay's fan-out, side by side.",
        discussion: """
            With the same publishing connections: (a) publishers commit pg_notify on a resort channel in a loop \
            and one plain listener counts; (b) publishers call meet.broadcast_position as their users and the \
            relay fans out to SUBSCRIBERS subscribers on that resort, each a friend of FRIENDS publishers; then \
            (b) again at half its peak rate for publish-to-delivery latency. Prints publishes/s, deliveries/s, \
            p50/p99 latency at half load and the ratio (b)/(a); the targets are a ratio of at least 0.5 and a \
            p99 under 50 ms. Takes about half a minute plus setup.
            """,
        options: [
            .value("--subscribers", "N", "subscribers on the resort, who are also the publishers (default 1000)"),
            .value("--friends", "N", "friends each subscriber has among the publishers, an even number (default 20)"),
            .value("--connections", "N", "publishing connections, the same for both runs (default 4)"),
            .value("--seconds", "S", "measured seconds of each run, after a 1 s warm-up (default 5)"),
            .flag("--keep", "keep the scratch database afterwards (its name is printed)"),
            .flag("--json", "print the measurements as JSON"),
        ],
        run: { invocation in
            let path = invocation.commandPath
            var settings = RelayBenchmark.Settings()
            settings.subscribers = try invocation.wholeNumber("--subscribers", default: settings.subscribers, minimum: 3)
            settings.friendsPerSubscriber = try invocation.wholeNumber("--friends", default: settings.friendsPerSubscriber, minimum: 2)
            settings.connections = try invocation.wholeNumber("--connections", default: settings.connections)
            settings.seconds = try invocation.number("--seconds", default: settings.seconds, minimum: 1)
            guard settings.friendsPerSubscriber % 2 == 0, settings.friendsPerSubscriber < settings.subscribers else {
                throw CLIError.usage("--friends must be even (friends sit on both sides of a ring) and below --subscribers",
                                     command: path)
            }
            let console = invocation.console
            let result = try await onScratchDatabase(invocation) { scratch, _ in
                try await RelayBenchmark(settings).run(on: scratch) { console.note($0) }
            }
            if invocation.json {
                try console.json(result)
            } else {
                console.out(relayTable(result))
            }
            return 0
        })

    static func relayTable(_ result: RelayBenchmark.Result) -> String {
        func rate(_ value: Double) -> String { Int(value.rounded()).formatted() }
        func ms(_ value: Double) -> String { value.isNaN ? "-" : String(format: "%.1f ms", value) }
        let header = ["", "publishes/s", "deliveries/s", "p50", "p99"]
        let rows = [
            ["(a) raw pg_notify, one plain listener", rate(result.rawPublishesPerSecond), rate(result.rawDeliveriesPerSecond), "", ""],
            ["(b) broadcast_position + relay fan-out", rate(result.summitPublishesPerSecond),
             rate(result.summitDeliveriesPerSecond), "", ""],
            ["(b) at half load (\(rate(result.halfLoadTargetPerSecond))/s)", rate(result.halfLoadPublishesPerSecond),
             rate(result.halfLoadDeliveriesPerSecond), ms(result.halfLoadP50Milliseconds), ms(result.halfLoadP99Milliseconds)],
        ]
        let ratioMet = result.ratio >= 0.5
        let latencyMet = result.halfLoadP99Milliseconds < 50
        return ([
            "\(result.subscribers.formatted()) subscribers on one resort, each a friend of \(result.friendsPerSubscriber) publishers; "
                + "\(result.connections) publishing connections; \(result.seconds.formatted()) s per run",
            "",
        ] + TextTable.lines([header] + rows) + [
            "",
            "ratio (b)/(a) publishes/s: \(String(format: "%.2f", result.ratio)) (target at least 0.5: \(ratioMet ? "met" : "missed"))",
            "p99 at half load: \(ms(result.halfLoadP99Milliseconds)) (target under 50 ms: \(latencyMet ? "met" : "missed"))",
            "positions dropped in full subscriber buffers: \(result.overflowDrops.formatted()); "
                + "delivered from a non-friend: \(result.misdelivered.formatted())",
        ]).joined(separator: "\n")
    }
}
