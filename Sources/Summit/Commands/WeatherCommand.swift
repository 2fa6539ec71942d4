import Foundation
import Postgres

/// `summit weather refresh RESORT --from URL|FILE`: the hourly merge of an Open-Meteo forecast.
enum WeatherCommand {
    static let command = Command(
        name: "weather",
        summary: "Merge an Open-Meteo forecast into a resort's stored conditions, which meet planning then uses.",
        subcommands: [refresh])

    static let refresh = Command(
        name: "refresh",
        summary: "Read an Open-Meteo hourly forecast and merge it into RESORT's conditions; then re-cost its active meets.",
        discussion: """
            The forecast is Open-Meteo's answer requested with timeformat=unixtime, the current and hourly fields \
            temperature_2m, wind_speed_10m, visibility, cloud_cover (and snowfall), e.g. \
            https://api.open-meteo.com/v1/forecast?latitude=39.64&longitude=-106.37&timeformat=unixtime&timezone=auto\
            &current=temperature_2m,wind_speed_10m,visibility,cloud_cover&hourly=temperature_2m,wind_speed_10m,visibility,cloud_cover,snowfall \
            It is read by the solver's own parser and merged in one transaction: the current snapshot and UTC offset \
            are replaced, the hours it covers replace the stored ones. After the merge commits, each accepted meet \
            at the resort is re-costed to its agreed meeting point, which never moves. A forecast that cannot be \
            read or is refused changes nothing.
            """,
        arguments: [ResortCommand.resortArgument],
        options: [
            .value("--from", "URL|FILE", "the forecast: an http(s) URL or a file path (required)"),
            .flag("--json", "print the report as JSON"),
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let source = try FeedSource(try invocation.required("--from"))
            let console = invocation.console
            let report = try await AppSession.with(try invocation.workspace()) { session in
                do {
                    return try await WeatherRefresh(connection: session.connection).refresh(resortID: resortID, from: source) { console.note($0) }
                } catch let error as FeedError {
                    throw CLIError("weather refresh of \(resortID) failed, the previous conditions stay in place: \(error.problem)", fix: error.fix)
                }
            }
            if invocation.json {
                try console.json(report)
            } else {
                console.out("merged \(report.mergedSamples) hourly samples into \(resortID)'s conditions (generation \(report.generation), "
                            + "\(report.storedSamples) stored, snapshot \(report.observedAt)"
                            + (report.utcOffsetSeconds.map { ", UTC offset \($0) s" } ?? "") + ")")
                for meet in report.activeMeets {
                    let etas = meet.sides.map { side in side.etaSeconds.map { "\(Int($0.rounded())) s" } ?? "?" }.joined(separator: " / ")
                    console.out("  active meet \(meet.requestID) at \(meet.rendezvousPointID): "
                                + (meet.problem.map { "kept as stored (\($0))" } ?? "ETAs now \(etas), meeting point unchanged"))
                }
            }
            return 0
        })
}
