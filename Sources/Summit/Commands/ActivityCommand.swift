import ActivityImport
import Foundation
import MountainGraph
import Postgres

/// `summit activity …`: PowderMeet ski days from recordings, as one user.
enum ActivityCommand {
    static let command = Command(
        name: "activity",
        summary: "Import ski days (GPX, TCX, FIT, Slopes, Ski Tracks), list runs, show stats; make synthetic days.",
        subcommands: [importFiles, runs, stats, synth])

    static let graphOptions: [Command.Option] = [
        .value("--graph", "FILE", "the resort graph to match runs on: canonical graph JSON, a graph blob, or an Overpass extract"),
        .value("--synthetic-resort", "SEED", "match on the synthetic resort with this seed instead"),
    ]

    // MARK: import

    /// What happened to one file.
    struct FileResult: Encodable {
        var file: String
        var format: String?
        var status: String          // imported | not_ski | refused
        var reason: String?
        var error_code: String?
        var runs_found: Int
        var lift_rides: Int
        /// Lift rides put on a lift of the graph (strict or relaxed); 0 without a graph.
        var lift_rides_matched: Int
        /// The lifts ridden, in order, as graph edge ids.
        var lifts: [String]
        var matched_share: Double
        /// Metres of descents no edge explained (off-piste, or missing from the graph): reported, never forced onto a trail.
        var unmatched_m: Double
        var inserted: Int
        var duplicates: Int
        var notes: [String]
    }

    static let importFiles = Command(
        name: "import",
        summary: "Import recordings as USER's ski days at resort R.",
        discussion: """
            R must be in the catalog (summit resort list) or be the --synthetic-resort given. Every file \
            is read and checked first; a file that is corrupt, truncated, untimed, not a ski day, or made \
            more than 5 km outside the resort's area (unless --force) is reported and nothing of it is \
            written. The others are segmented into runs and lift rides \
            (Slopes and Ski Tracks labels are used as given), matched onto the resort graph when --graph or \
            --synthetic-resort gives one, and stored through activity.save_imported_runs, which skips runs \
            already stored (the same file again, or the same descent from another app). Progress goes to \
            standard error. Example:
              summit activity import --as ann --resort keystone day1.slopes day2.gpx
            """,
        arguments: [.init(name: "FILE", help: "recordings: .gpx .tcx .fit .slopes .skiz", variadic: true)],
        options: [
            AppCommand.asOption,
            .value("--resort", "R", "the resort id the runs belong to (required)"),
            .value("--equipment", "KEY", "equipment key at observation time: a ski id, or none (default none)"),
        ] + graphOptions + [
            .flag("--force", "import a recording even when it lies outside the resort's area"),
            .flag("--json", "print one result per file as JSON"),
        ],
        run: { invocation in
            let resort = try invocation.required("--resort").trimmingCharacters(in: .whitespaces)
            guard !resort.isEmpty, resort.count <= 100 else {
                throw CLIError.usage("--resort needs a resort id of 1 to 100 characters", command: invocation.commandPath)
            }
            let files = invocation.arguments
            guard !files.isEmpty else { throw CLIError.usage("give at least one FILE to import", command: invocation.commandPath) }
            for file in files where !FileManager.default.fileExists(atPath: file) {
                throw CLIError("there is no file \(file)", fix: "check the path")
            }
            _ = try invocation.required("--as")
            let console = invocation.console
            let loaded = try ActivityGraphSource.load(graphFile: invocation.value("--graph"),
                                                      syntheticSeed: invocation.value("--synthetic-resort"),
                                                      resortID: resort, commandPath: invocation.commandPath)
            let area = try await importArea(invocation, resort: resort, graph: loaded?.graph)
            let force = invocation.flag("--force")
            let matcher = loaded.map { TrailMatcher(graph: $0.graph) }
            if loaded == nil { console.note("no --graph given: runs are stored without trail matching") }
            let options = SkiDayImport.Options(resortID: resort, datasetVersion: loaded?.datasetVersion,
                                               equipmentKey: invocation.value("--equipment") ?? "none")

            // Read and check everything before writing anything.
            var results: [FileResult] = []
            var imports: [SkiDayImport?] = []
            for (number, file) in files.enumerated() {
                console.note("[\(number + 1)/\(files.count)] reading \(file)")
                do {
                    let parsed = try ActivityParser.parse(contentsOf: URL(fileURLWithPath: file))
                    if let area, !force, let distance = area.distance(of: parsed), distance > ResortArea.margin {
                        imports.append(nil)
                        results.append(FileResult(file: file, status: "refused",
                                                  reason: "its nearest fix is \(String(format: "%.1f", distance / 1000)) km from \(resort)'s area "
                                                      + "(more than \(Int(ResortArea.margin / 1000)) km): check --resort, or give --force to import it anyway",
                                                  error_code: "outside_resort", runs_found: 0, lift_rides: 0, lift_rides_matched: 0, lifts: [],
                                                  matched_share: 0, unmatched_m: 0, inserted: 0, duplicates: 0,
                                                  notes: ["\(Int(distance)) m away"]))
                        continue
                    }
                    let day = SkiDayImport(parsed, matcher: matcher, options: options)
                    imports.append(day)
                    let liftsMatched = day.liftMatches.filter { $0.method == .strict || $0.method == .relaxed }
                    var result = FileResult(file: file, format: parsed.format.rawValue, status: "imported", runs_found: day.runs.count,
                                            lift_rides: day.liftRides, lift_rides_matched: liftsMatched.count,
                                            lifts: liftsMatched.compactMap(\.primaryEdgeID),
                                            matched_share: day.matchedShare,
                                            unmatched_m: matcher == nil ? 0 : day.runs.reduce(0) { $0 + $1.unmatched.reduce(0) { $0 + $1.distance } },
                                            inserted: 0, duplicates: 0, notes: day.notes)
                    if case .notSki(let reason) = day.verdict {
                        result.status = "not_ski"
                        result.reason = "not a ski activity: \(reason)"
                    }
                    results.append(result)
                } catch let error as ActivityImportError {
                    imports.append(nil)
                    results.append(FileResult(file: file, status: "refused", reason: error.explanation, error_code: error.code,
                                              runs_found: 0, lift_rides: 0, lift_rides_matched: 0, lifts: [], matched_share: 0, unmatched_m: 0,
                                              inserted: 0, duplicates: 0,
                                              notes: error.position.map { ["at \($0)"] } ?? []))
                }
            }
            let toSave = imports.enumerated().compactMap { index, day -> (Int, [ImportedRunRow])? in
                guard let day, day.verdict.isSkiDay, !day.runs.isEmpty else { return nil }
                return (index, day.runs.map(ImportedRunRow.init))
            }
            if !toSave.isEmpty {
                let saved = try await AppCommand.acting(invocation) { session, me in
                    var counts: [(Int, Int, Int)] = []
                    for (index, rows) in toSave {
                        console.note("[\(index + 1)/\(files.count)] saving \(rows.count) runs from \(files[index])")
                        let answer = try await session.call("activity.save_imported_runs", [("p_runs", PostgresJSON(rows))], as: me.caller)
                        counts.append((index, answer.json["inserted"].int ?? 0, answer.json["duplicates"].int ?? 0))
                    }
                    return counts
                }
                for (index, inserted, duplicates) in saved {
                    results[index].inserted = inserted
                    results[index].duplicates = duplicates
                }
            }
            if invocation.json {
                try console.json(results)
            } else {
                for result in results {
                    switch result.status {
                    case "imported":
                        let share = String(format: "%.0f%%", result.matched_share * 100)
                        let lifts = matcher == nil ? "" : " (\(result.lift_rides_matched) on a known lift)"
                        console.out("\(result.file): \(result.runs_found) runs, \(result.lift_rides) lift rides\(lifts), \(share) of descent distance matched; "
                                    + "\(result.inserted) new, \(result.duplicates) already stored")
                        if result.unmatched_m >= 50 {
                            console.out("  \(Int(result.unmatched_m)) m of descent matched no trail (off-piste or missing from the graph)")
                        }
                        for note in result.notes { console.out("  \(note)") }
                    case "not_ski":
                        console.out("\(result.file): skipped, \(result.reason ?? "not a ski activity")")
                    default:
                        console.out("\(result.file): refused (\(result.error_code ?? "error")\(result.notes.first.map { ", \($0)" } ?? "")): \(result.reason ?? "")")
                    }
                }
            }
            return results.contains { $0.status == "refused" } ? 1 : 0
        })

    // MARK: runs and stats

    struct RunRow: Decodable, Encodable, Sendable {
        var id: UUID
        var resort_id: String
        var run_at: Date
        var source: String
        var edge_id: String?
        var trail_name: String?
        var match_method: String
        var match_confidence: Double
        var duration_s: Double
        var vertical_m: Double
        var distance_m: Double
        var speed_ms: Double?
        var peak_speed_ms: Double?
        /// The recording app's own figures where its file had them; the figures above are Summit's.
        var app_figures: ImportedRunRow.AppFigures?
    }

    static let runs = Command(
        name: "runs",
        summary: "List USER's imported runs, newest first (only the owner can see them), with the recording app's own figures beside Summit's.",
        options: [AppCommand.asOption, .value("--limit", "N", "at most N runs (default 100)"), .flag("--json", "print the runs as JSON")],
        run: { invocation in
            guard let limit = Int(invocation.value("--limit") ?? "100"), limit > 0 else {
                throw CLIError.usage("--limit needs a positive number", command: invocation.commandPath)
            }
            let rows = try await AppCommand.acting(invocation) { session, me in
                try await session.connection.acting(as: me.caller) { db in
                    try await db.query("""
                        select id, resort_id, run_at, source, edge_id, trail_name, match_method, match_confidence,
                               duration_s, vertical_m, distance_m, speed_ms, peak_speed_ms, app_figures
                        from activity.imported_runs order by run_at desc limit \(limit)
                        """).decode(RunRow.self)
                }
            }
            if invocation.json { try invocation.console.json(rows); return 0 }
            if rows.isEmpty { invocation.console.out("no runs yet: summit activity import --as USER --resort R FILE…"); return 0 }
            let formatter = ISO8601DateFormatter()
            for row in rows {
                let trail = row.trail_name ?? row.edge_id ?? "unmatched"
                let app = row.app_figures.map {
                    String(format: "  (the app's: %.0f m down, top %.1f m/s)", $0.vertical_m ?? .nan, $0.top_speed_ms ?? .nan)
                } ?? ""
                invocation.console.out("\(formatter.string(from: row.run_at))  \(row.resort_id)  \(trail) (\(row.match_method))  "
                    + String(format: "%.0f m down, %.0f m, %.0f s, avg %.1f m/s, top %.1f m/s", row.vertical_m, row.distance_m,
                             row.duration_s, row.speed_ms ?? 0, row.peak_speed_ms ?? 0) + app)
            }
            return 0
        })

    struct StatsRow: Decodable, Encodable, Sendable {
        var profile_id: UUID
        var days_skied: Int
        var runs_count: Int
        var vertical_m: Double
        var top_speed_ms: Double?
        var total_duration_s: Double
        var total_distance_m: Double
        var top_grade_deg: Double?
        var avg_speed_ms: Double?
        var last_import_at: Date?
    }

    static let stats = Command(
        name: "stats",
        summary: "Show USER's ski stats, or with --of a friend's (friends see stats, never runs).",
        options: [AppCommand.asOption, .value("--of", "FRIEND", "whose stats: a friend's username (default USER's own)"),
                  .flag("--json", "print the stats as JSON")],
        run: { invocation in
            let (row, whose) = try await AppCommand.acting(invocation) { session, me -> (StatsRow?, String) in
                let subject = if let other = invocation.value("--of") { try await session.person(other) } else { me.person }
                let row = try await session.connection.acting(as: me.caller) { db in
                    try await db.query("select * from activity.profile_stats where profile_id = \(subject.id)").first(as: StatsRow.self)
                }
                if row == nil, subject.id != me.person.id {
                    throw CLIError("\(me.person.name) cannot see \(subject.name)'s stats, or they have none",
                                   fix: "stats are visible to the skier and their friends only")
                }
                return (row, subject.name)
            }
            if invocation.json { try invocation.console.json(row); return 0 }
            guard let row else { invocation.console.out("\(whose) has no ski days yet"); return 0 }
            invocation.console.out("""
                \(whose): \(row.days_skied) days, \(row.runs_count) runs, \(Int(row.vertical_m)) m vertical, \
                \(String(format: "%.1f", row.total_distance_m / 1000)) km
                top speed \(String(format: "%.1f", row.top_speed_ms ?? 0)) m/s, average \(String(format: "%.1f", row.avg_speed_ms ?? 0)) m/s, \
                steepest \(String(format: "%.0f", row.top_grade_deg ?? 0))°
                """)
            return 0
        })

    // MARK: synth

    static let synth = Command(
        name: "synth",
        summary: "Write a synthetic ski day (GPX) on a synthetic resort, with its truth.",
        discussion: """
            A skier queues, rides lifts, and skis down random runs of the synthetic resort --resort-seed, \
            with GPS drift, noisy altitude, mid-run pauses and dropouts. The truth (lift rides and runs) is \
            printed; import the file with --synthetic-resort and the same seed to match it. Example:
              summit activity synth --seed 3 --resort-seed 7 --out day.gpx
            """,
        options: [
            .value("--seed", "N", "the day's seed (default 1)"),
            .value("--resort-seed", "N", "the synthetic resort's seed (default 7)"),
            .value("--laps", "N", "lift-and-run laps (default 8)"),
            .value("--out", "FILE", "where to write the GPX (required)"),
            .flag("--json", "print the truth as JSON"),
        ],
        run: { invocation in
            guard let seed = UInt64(invocation.value("--seed") ?? "1"), let resortSeed = UInt64(invocation.value("--resort-seed") ?? "7"),
                  let laps = Int(invocation.value("--laps") ?? "8"), laps > 0, laps <= 100 else {
                throw CLIError.usage("--seed and --resort-seed take numbers, --laps 1 to 100", command: invocation.commandPath)
            }
            let out = try invocation.required("--out")
            let graph = try ActivityGraphSource.synthetic(seed: resortSeed, resortID: "synthetic-\(resortSeed)")
            var options = SyntheticSkiDay.Options(seed: seed)
            options.laps = laps
            let day = SyntheticSkiDay(graph: graph, options: options)
            do {
                try Data(day.gpx(name: "Synthetic day \(seed) on resort \(resortSeed)")).write(to: URL(fileURLWithPath: out))
            } catch {
                throw CLIError("cannot write \(out): \(error.localizedDescription)", fix: "choose a writable path")
            }
            struct Truth: Encodable { var kind: String; var start: String; var seconds: Double }
            let truth = day.truth.sections.map { Truth(kind: $0.kind.rawValue, start: ImportedRunRow.iso($0.start), seconds: $0.end - $0.start) }
            if invocation.json { try invocation.console.json(truth); return 0 }
            invocation.console.out("wrote \(out): \(day.points.count) fixes, \(truth.filter { $0.kind == "run" }.count) runs, "
                                   + "\(truth.filter { $0.kind == "lift" }.count) lift rides")
            return 0
        })

    /// Where `resort` lies: its catalog box, with the graph's extent when one is given. A
    /// resort the catalog does not hold is refused, unless the synthetic resort given is it
    /// (the project's own test resorts live in no catalog).
    static func importArea(_ invocation: Invocation, resort: String, graph: MountainGraph?) async throws -> ResortArea? {
        let rows = try await AppSession.with(try invocation.workspace()) { try await ResortCommand.catalog($0.connection, id: resort) }
        let fromGraph = graph.flatMap(ResortArea.init(graph:))
        guard let row = rows.first else {
            guard invocation.value("--synthetic-resort") != nil else {
                throw CLIError("there is no resort \(resort) in the catalog, so runs cannot be stored under it",
                               fix: "`summit resort list` shows the resorts; `summit resort ingest \(resort) --osm FILE --snapshot-date YYYY-MM-DD` adds one")
            }
            return fromGraph
        }
        let box = ResortArea(latMin: row.lat_min, lonMin: row.lon_min, latMax: row.lat_max, lonMax: row.lon_max)
        return fromGraph.map(box.union) ?? box
    }
}
