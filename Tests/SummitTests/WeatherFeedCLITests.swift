import Foundation
import MeetSolver
import Postgres
@testable import Summit
import SummitTestSupport
import Testing

/// `summit weather refresh` through the real binary: the forecast is read by
/// the solver's parser, merged into the conditions table, read back by
/// planning with the hold/fade rules at every boundary, and an active meet is
/// re-costed after the merge without its meeting point moving.
@Suite(.serialized) struct WeatherFeedCLITests {
    /// An Open-Meteo answer (timeformat=unixtime) with samples at the given
    /// hours from `t0` and the given winds; the current snapshot is calm.
    static func forecast(t0: Double, hours: [Double], winds: [Double], temperature: Double = -6, visibility: Double = 20_000) -> String {
        let times = hours.map { String(Int(t0 + $0 * 3600)) }.joined(separator: ",")
        let wind = winds.map { String($0) }.joined(separator: ",")
        let repeated = { (value: Double) in Array(repeating: String(value), count: hours.count).joined(separator: ",") }
        return """
            {"latitude": 42.5, "longitude": 1.5, "utc_offset_seconds": 3600, "elevation": 2100,
             "current": {"time": \(Int(t0)), "temperature_2m": -2, "wind_speed_10m": 0, "visibility": 24000, "cloud_cover": 10},
             "hourly": {"time": [\(times)], "temperature_2m": [\(repeated(temperature))], "wind_speed_10m": [\(wind)],
                        "visibility": [\(repeated(visibility))], "cloud_cover": [\(repeated(50))], "snowfall": [\(repeated(0.5))]}}
            """
    }

    @Test func theStoredForecastInterpolatesHoldsAndFadesAtEveryBoundary() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("resort", "synth", "--seed", "3", "--size", "1", "--out", folder.appendingPathComponent("r.json").path)
                try await cli.ok("resort", "ingest", "wx", "--osm", folder.appendingPathComponent("r.json").path, "--snapshot-date", "2026-01-15")
                let now = try await cli.scalar("select extract(epoch from summit.now())::float8", as: Double.self)
                let t0 = (now / 3600).rounded(.down) * 3600
                // Samples at -1 h, 0, +1 h, then a four-hour gap to +5 h.
                let text = Self.forecast(t0: t0, hours: [-1, 0, 1, 5], winds: [10, 20, 30, 60])
                let file = folder.appendingPathComponent("forecast.json")
                try Data(text.utf8).write(to: file)
                let merged = try await cli.ok("weather", "refresh", "wx", "--from", file.path, "--json").json
                #expect(merged["generation"].int == 1 && merged["merged_samples"].int == 4)
                #expect(merged["utc_offset_seconds"].int == 3600)

                let parsed = try ResortConditions(openMeteoJSON: Array(text.utf8))
                let stored = try #require(try await PostgresConnection.withConnection(cli.database) { db in
                    try await db.acting(as: .serviceRole) { try await StoredConditions.load(resortID: "wx", on: $0) }
                })
                #expect(stored == parsed, "the table gives back exactly what the solver's parser read")
                #expect(stored.utcOffsetSeconds == 3600 && stored.freshSnow24h == 1.0 && stored.stationElevation == 2100)

                func wind(_ hours: Double) -> Double { stored.reading(at: t0 + hours * 3600).wind }
                #expect(wind(0.5) == 25, "samples an hour apart interpolate")
                #expect(wind(-2) == 10, "before the first sample it holds for an hour")
                #expect(wind(-2.25) == 5, "then fades to the current snapshot over thirty minutes")
                #expect(wind(-2.5) == 0 && wind(-4) == 0, "then the current snapshot applies")
                #expect(wind(2) == 30, "across a missing stretch the earlier sample holds an hour")
                #expect(wind(2.25) == 15 && wind(2.5) == 0 && wind(3) == 0, "fades, then the current snapshot")
                #expect(wind(3.5) == 0 && wind(3.75) == 30 && wind(4) == 60, "the later sample fades in the same way")
                #expect(wind(6) == 60 && wind(6.25) == 30 && wind(6.5) == 0 && wind(9) == 0, "past the last sample: hold, fade, current")

                // A later merge replaces the hours it covers and keeps the rest.
                let update = folder.appendingPathComponent("update.json")
                try Data(Self.forecast(t0: t0, hours: [1, 2], winds: [40, 45]).utf8).write(to: update)
                #expect(try await cli.ok("weather", "refresh", "wx", "--from", update.path, "--json").json["generation"].int == 2)
                let after = try #require(try await PostgresConnection.withConnection(cli.database) { db in
                    try await db.acting(as: .serviceRole) { try await StoredConditions.load(resortID: "wx", on: $0) }
                })
                #expect(after.hourly.map(\.reading.wind) == [10, 20, 40, 45, 60])
                #expect(after.reading(at: t0 + 1.5 * 3600).wind == 42.5, "the filled gap now interpolates")

                // A broken forecast changes nothing.
                let broken = folder.appendingPathComponent("broken.json")
                try Data(#"{"utc_offset_seconds": 3600, "hourly": {"time": [1, 2], "temperature_2m": [1]}}"#.utf8).write(to: broken)
                let failed = try await cli.fails("weather", "refresh", "wx", "--from", broken.path)
                #expect(failed.stderr.contains("the previous conditions stay in place"))
                let lengths = folder.appendingPathComponent("lengths.json")
                try Data(Self.forecast(t0: t0, hours: [1, 2], winds: [40]).utf8).write(to: lengths)
                #expect(try await cli.fails("weather", "refresh", "wx", "--from", lengths.path).stderr.contains("differ in length"))
                #expect(try await cli.scalar("select merge_generation from mountain.resort_conditions where resort_id = 'wx'", as: Int.self) == 2)
            }
        }
    }

    @Test func planningUsesTheStoredConditionsAndActiveMeetsKeepTheirMeetingPoint() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("demo", "--out", folder.path)
                let stored = try await cli.scalar("""
                    select rendezvous_point_id || ' ' || meeting_node_id || ' ' || sender_eta_seconds || ' ' || receiver_eta_seconds
                    from meet.meet_requests where status = 'accepted'
                    """, as: String.self)
                let now = try await cli.scalar("select extract(epoch from summit.now())::float8", as: Double.self)
                let t0 = (now / 3600).rounded(.down) * 3600
                let at = try await StatusFeedCLITests.time(cli, plus: 0)
                let plan = ["meet", "plan", "--resort", "demo-7", "--as", "ann", "--friend", "bob", "--at", at,
                            "--start", "n1531", "--friend-start", "t100068_s2@0.4", "--json"]
                let calm = try await cli.run(plan)
                #expect(calm.status == 0, "\(calm.stderr)")

                // A storm: strong wind on the lifts, thaw and fog on the runs, for the next hours.
                let storm = folder.appendingPathComponent("storm.json")
                try Data(Self.forecast(t0: t0, hours: [-1, 0, 1, 2, 3], winds: [75, 75, 75, 75, 75], temperature: 6, visibility: 150).utf8)
                    .write(to: storm)
                let merged = try await cli.ok("weather", "refresh", "demo-7", "--from", storm.path, "--json")
                let stormy = try await cli.run(plan)
                let explicit = try await cli.run(plan + ["--weather", storm.path])
                #expect(stormy.status == explicit.status && stormy.stdoutWithoutSolveTime == explicit.stdoutWithoutSolveTime,
                        "without --weather the plan reads the merged forecast")
                #expect(stormy.stdoutWithoutSolveTime != calm.stdoutWithoutSolveTime, "and the storm changes it")

                // The demo's accepted meet was re-costed after the merge, to the same meeting point.
                let meets = merged.json["active_meets"].array
                #expect(meets.count == 1)
                let meet = try #require(meets.first)
                #expect(meet["problem"].isNull, "\(merged.stdout)")
                #expect(meet["rendezvous_point_id"].string == stored.split(separator: " ").first.map(String.init))
                let etas = meet["sides"].array.compactMap { $0["eta_seconds"].int }
                let storedETAs = meet["sides"].array.compactMap { $0["stored_eta_seconds"].int }
                #expect(etas.count == 2 && etas != storedETAs, "the storm changes the ETAs: \(etas) vs \(storedETAs)")
                #expect(try await cli.scalar("""
                    select rendezvous_point_id || ' ' || meeting_node_id || ' ' || sender_eta_seconds || ' ' || receiver_eta_seconds
                    from meet.meet_requests where status = 'accepted'
                    """, as: String.self) == stored, "the agreed meet itself never changes")
            }
        }
    }
}
