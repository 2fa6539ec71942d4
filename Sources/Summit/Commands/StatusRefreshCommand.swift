import Foundation
import Postgres

/// `summit status refresh RESORT --from URL|FILE`: a new status sidecar from a lift and trail feed.
enum StatusRefreshCommand {
    static let refresh = Command(
        name: "refresh",
        summary: "Read a lift and trail status feed and record it as RESORT's status sidecar for its active dataset.",
        discussion: """
            The feed is a summit-status/1 document or the Epic terrain feed (FR.TerrainStatusFeed, the JSON or \
            the page embedding it); see docs/feeds-and-jobs.md. Names map to the active \
            dataset's identities and from there to every stable edge id; a name no identity or several carry is \
            left out and reported, never guessed. An unreadable feed, one for another resort or dataset, a count \
            mismatch or a feed where nothing maps fails the refresh and leaves the previous status in place. \
            The status is valid for an hour from its observation unless the feed says otherwise. Example:
              summit status refresh demo-7 --from https://example.com/demo-7/status.json
            """,
        arguments: [ResortCommand.resortArgument],
        options: [
            .value("--from", "URL|FILE", "the feed: an http(s) URL or a file path (required)"),
            .value("--format", "FORMAT", "summit or epic; default: recognised from the document"),
            .flag("--json", "print the report as JSON"),
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let source = try FeedSource(try invocation.required("--from"))
            let format = try invocation.value("--format").map { text -> StatusFeed.Format in
                guard let format = StatusFeed.Format(rawValue: text) else {
                    throw CLIError.usage("--format is summit or epic, not \"\(text)\"", command: invocation.commandPath)
                }
                return format
            }
            let console = invocation.console
            let report = try await AppSession.with(try invocation.workspace()) { session in
                do {
                    return try await StatusRefresh(connection: session.connection)
                        .refresh(resortID: resortID, from: source, format: format) { console.note($0) }
                } catch let error as FeedError {
                    throw CLIError("status refresh of \(resortID) failed, the previous status stays in place: \(error.problem)", fix: error.fix)
                }
            }
            if invocation.json {
                try console.json(report)
            } else {
                console.out("recorded \(resortID)'s status for \(report.datasetVersion) (hour \(report.hourKey)): "
                            + "\(report.mappedIdentities) of \(report.entries) feed entries mapped, \(report.edgesWritten) edges; "
                            + "observed \(report.observedAt), valid until \(report.expiresAt)")
                for omission in report.omitted {
                    console.out("  omitted \(omission.kind ?? "entry") \"\(omission.name)\": \(omission.reason)"
                                + (omission.candidates.isEmpty ? "" : " — \(omission.candidates.joined(separator: ", "))"))
                }
            }
            return 0
        })
}
