import Foundation
import Summit

extension BenchCommand {
    static let gateway = Command(
        name: "gateway",
        summary: "An RPC through the gateway (wrk) against the same RPC over libpq, and WebSocket fan-out to 5,000 clients.",
        discussion: """
            On a scratch database with one skier and CLIENTS friends: (a) social.get_social_snapshot() as the skier, \
            called directly over libpq by CONNECTIONS tasks, then through POST /rest/v1/rpc/get_social_snapshot driven \
            by wrk with as many connections (both on the same number of PostgreSQL connections); prints requests/s \
            side by side and their ratio (target: at least 0.5); then the same for social.my_friends with select, a filter, \
            order, limit and count=exact, and for a friendships read embedding two profiles. (b) CLIENTS realtime clients (a Python websockets \
            swarm, from PyPI into .build/gateway-venv) follow the skier's position channel; the skier publishes ROUNDS \
            positions and each client records capture-to-arrival latency; prints p50/p90/p99. Needs wrk (apt) and \
            about two file descriptors per client. Run a release build for figures: `swift build -c release`, then \
            `.build/release/summit bench gateway`.
            """,
        options: [
            .value("--seconds", "S", "measured seconds of each RPC run, after a 1 s warm-up (default 10)"),
            .value("--connections", "N", "wrk connections and direct callers (default 32)"),
            .value("--clients", "N", "realtime clients for the fan-out (default 5000)"),
            .value("--rounds", "N", "positions published during the fan-out, one a second (default 20)"),
            .flag("--rest-only", "run (a) only"),
            .flag("--realtime-only", "run (b) only"),
            .flag("--keep", "keep the scratch database afterwards (its name is printed)"),
            .flag("--json", "print the measurements as JSON"),
        ],
        run: { invocation in
            var settings = GatewayBenchmark.Settings()
            settings.httpConnections = try invocation.wholeNumber("--connections", default: settings.httpConnections)
            settings.clients = try invocation.wholeNumber("--clients", default: settings.clients)
            settings.rounds = try invocation.wholeNumber("--rounds", default: settings.rounds)
            settings.seconds = try invocation.number("--seconds", default: settings.seconds, minimum: 1)
            if invocation.flag("--rest-only") && invocation.flag("--realtime-only") {
                throw CLIError.usage("--rest-only and --realtime-only exclude each other", command: invocation.commandPath)
            }
            settings.rest = !invocation.flag("--realtime-only")
            settings.realtime = !invocation.flag("--rest-only")
            let console = invocation.console
            let result = try await onScratchDatabase(invocation) { scratch, workspace in
                try await GatewayBenchmark(settings).run(on: scratch, workspace: workspace) { console.note($0) }
            }
            if invocation.json {
                try console.json(result)
            } else {
                console.out(gatewayTable(result, settings))
            }
            return 0
        })

    static func gatewayTable(_ result: GatewayBenchmark.Result, _ settings: GatewayBenchmark.Settings) -> String {
        var lines: [String] = []
        func rate(_ value: Double?) -> String { value.map { Int($0.rounded()).formatted() } ?? "-" }
        func ms(_ value: Double?) -> String { value.map { String(format: "%.1f ms", $0) } ?? "-" }
        if settings.rest {
            lines.append("(a) social.get_social_snapshot() as a signed-in user, \(settings.httpConnections) concurrent callers, \(settings.databaseConnections) PostgreSQL connections")
            lines.append("    direct over libpq            \(rate(result.directPerSecond).leftPadded(to: 8, with: " ")) calls/s")
            lines.append("    gateway POST /rest/v1/rpc    \(rate(result.gatewayPerSecond).leftPadded(to: 8, with: " ")) requests/s   (wrk latency p50 \(result.gatewayLatencyP50 ?? "-"), p99 \(result.gatewayLatencyP99 ?? "-"))")
            lines.append("    ratio gateway/direct         \(result.ratio.map { String(format: "%.2f", $0) } ?? "-")   (target ≥ 0.50)")
            for query in result.queries {
                lines.append("    \(query.name): \(query.path)")
                lines.append("      direct \(rate(query.directPerSecond)) calls/s, gateway \(rate(query.gatewayPerSecond)) requests/s "
                             + "(p50 \(query.gatewayLatencyP50 ?? "-"), p99 \(query.gatewayLatencyP99 ?? "-")), ratio \(String(format: "%.2f", query.ratio))")
            }
        }
        if settings.realtime {
            lines.append("(b) WebSocket fan-out: \(result.clients ?? settings.clients) clients following one skier, \(result.rounds ?? settings.rounds) positions")
            lines.append("    delivered                    \(result.delivered ?? 0) of \(result.expected ?? 0)   (all clients live after \(result.joinSeconds.map { String(format: "%.1f s", $0) } ?? "-"))")
            lines.append("    capture → arrival            p50 \(ms(result.fanOutP50Milliseconds))   p90 \(ms(result.fanOutP90Milliseconds))   p99 \(ms(result.fanOutP99Milliseconds))   max \(ms(result.fanOutMaxMilliseconds))")
        }
        return lines.joined(separator: "\n")
    }
}

private extension String {
    func leftPadded(to width: Int, with pad: Character) -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
