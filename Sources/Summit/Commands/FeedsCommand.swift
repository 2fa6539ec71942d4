import Foundation
import Postgres

/// `summit feeds …`: where the worker fetches each resort's status and forecast from.
enum FeedsCommand {
    static let command = Command(
        name: "feeds",
        summary: "Configure the status and weather feeds the worker refreshes for each resort.",
        discussion: """
            The worker refreshes each enabled status feed within two minutes of its status expiring and each \
            forecast hourly, retrying failures after five minutes (mountain.due_feed_refreshes).
            """,
        subcommands: [list, set, remove])

    static let list = Command(
        name: "list",
        summary: "List the configured feeds with their last refresh.",
        options: [.flag("--json", "print the feeds as JSON")],
        run: { invocation in
            let text = try await AppSession.with(try invocation.workspace()) { session in
                try await session.connection.query("""
                    select coalesce(jsonb_agg(jsonb_build_object('resort_id', s.resort_id, 'kind', s.kind, 'location', s.location,
                      'format', s.format, 'enabled', s.enabled, 'last_attempt_at', r.last_attempt_at, 'last_success_at', r.last_success_at,
                      'last_failure_at', r.last_failure_at, 'last_error', r.last_error, 'consecutive_failures', coalesce(r.consecutive_failures, 0))
                      order by s.resort_id, s.kind), '[]')::text
                    from mountain.resort_feed_sources s
                    left join mountain.resort_feed_refreshes r on r.resort_id = s.resort_id and r.kind = s.kind
                    """, as: .serviceRole).scalar(String.self)
            }
            if invocation.json {
                invocation.console.out(DatabaseCommands.prettyJSON(text))
                return 0
            }
            let feeds = try JSONValue(parsing: text).array
            if feeds.isEmpty { invocation.console.out("no feeds configured; add one with summit feeds set RESORT --status URL|FILE") }
            for feed in feeds {
                var line = "\(feed["resort_id"].string ?? "") \(feed["kind"].string ?? "")\(feed["enabled"].bool == false ? " (disabled)" : ""): "
                    + (feed["location"].string ?? "")
                if let format = feed["format"].string { line += " [\(format)]" }
                if let success = feed["last_success_at"].string { line += "; last success \(success)" }
                if let error = feed["last_error"].string, (feed["consecutive_failures"].int ?? 0) > 0 {
                    line += "; failing (\(feed["consecutive_failures"].int ?? 0)×): \(error)"
                }
                invocation.console.out(line)
            }
            return 0
        })

    static let set = Command(
        name: "set",
        summary: "Set where RESORT's status feed and/or forecast come from.",
        discussion: "Example: summit feeds set vail --status https://example.com/vail/terrain --status-format epic --weather https://api.open-meteo.com/v1/forecast?…",
        arguments: [ResortCommand.resortArgument],
        options: [
            .value("--status", "URL|FILE", "the lift and trail status feed"),
            .value("--status-format", "FORMAT", "summit or epic; default: recognised from each document"),
            .value("--weather", "URL|FILE", "the Open-Meteo forecast (timeformat=unixtime)"),
            .flag("--disable", "keep the configuration but stop refreshing it"),
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            var feeds: [(kind: String, location: String, format: String?)] = []
            // A file is stored by its absolute path: the worker may run from another folder.
            func location(_ text: String) throws -> String {
                if case let .file(path) = try FeedSource(text) { return URL(fileURLWithPath: path).standardizedFileURL.path }
                return text.trimmingCharacters(in: .whitespaces)
            }
            if let status = invocation.value("--status") {
                feeds.append(("status", try location(status), invocation.value("--status-format")))
            } else if invocation.value("--status-format") != nil {
                throw CLIError.usage("--status-format goes with --status", command: invocation.commandPath)
            }
            if let weather = invocation.value("--weather") {
                feeds.append(("weather", try location(weather), nil))
            }
            guard !feeds.isEmpty else {
                throw CLIError.usage("give --status, --weather or both", command: invocation.commandPath)
            }
            let configured = feeds
            try await AppSession.with(try invocation.workspace()) { session in
                for feed in configured {
                    try await session.call("mountain.set_feed_source", [
                        ("p_resort_id", resortID), ("p_kind", feed.kind), ("p_location", feed.location),
                        ("p_format", feed.format), ("p_enabled", !invocation.flag("--disable")),
                    ], as: .serviceRole)
                }
            }
            for feed in feeds {
                invocation.console.out("\(resortID) \(feed.kind): \(feed.location)\(invocation.flag("--disable") ? " (disabled)" : "")")
            }
            return 0
        })

    static let remove = Command(
        name: "remove",
        summary: "Stop refreshing RESORT's feeds and forget them (the stored status and conditions stay).",
        arguments: [ResortCommand.resortArgument],
        options: [
            .flag("--status", "only the status feed"),
            .flag("--weather", "only the forecast"),
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let onlyOne = invocation.flag("--status") != invocation.flag("--weather")
            let kinds = onlyOne ? [invocation.flag("--status") ? "status" : "weather"] : ["status", "weather"]
            let removed = try await AppSession.with(try invocation.workspace()) { session in
                try await session.connection.query("""
                    with gone as (delete from mountain.resort_feed_sources where resort_id = \(resortID) and kind = any(\(kinds)) returning 1)
                    select count(*)::int from gone
                    """, as: .serviceRole).scalar(Int.self)
            }
            guard removed > 0 else {
                throw CLIError("\(resortID) has no such feed configured", fix: "see summit feeds list")
            }
            invocation.console.out("removed \(removed) feed\(removed == 1 ? "" : "s") of \(resortID)")
            return 0
        })
}
