import Foundation
import Migrator
import Postgres
import SummitDatabase

/// `summit demo`: PowderMeet from nothing to an accepted meet, in one run.
enum DemoCommand {
    static let command = Command(
        name: "demo",
        summary: "Build a resort, publish it, make two friends share positions, plan a fair meet, send and accept it, and draw it.",
        discussion: """
            Starts the embedded PostgreSQL (or uses DATABASE_URL) and migrates it, then: a synthetic resort (or \
            --osm FILE…, cut to --bbox) through ingest → review → apply → build → publish; a status sidecar; users ann and bob, \
            friends, sharing live positions; a strict meet plan; ann sends it, bob re-validates and accepts. The \
            plan is printed and drawn as an SVG (and a PNG when rsvg-convert or ImageMagick is installed) in \
            --out (default ./summit-demo). Running it again reuses everything already published.
            """,
        options: [
            .value("--seed", "N", "the synthetic resort's seed (default 7)"),
            .value("--osm", "FILE", "a real OSM extract (Overpass JSON, OSM XML or overpass-turbo GeoJSON; several are merged) instead of a synthetic resort", repeatable: true),
            .value("--bbox", "S,W,N,E", "with --osm: keep only the ways with a vertex in this box (one resort of an extract that holds several)"),
            .value("--snapshot-date", "YYYY-MM-DD", "with --osm: the date of the OSM data, when the files carry none"),
            .value("--elevation", "FILE", "SRTM tiles or an elevation map for --osm; repeatable (without: built flat)", repeatable: true),
            .value("--resort", "R", "the resort id to publish as (default demo-SEED, or demo- and the extract's file name)"),
            .value("--out", "DIR", "where to write meet.svg and meet.geojson (default ./summit-demo)"),
            .flag("--json", "print the plan as JSON"),
        ],
        run: { invocation in
            let clock = ContinuousClock()
            let started = clock.now
            var options = Demo.Options(outputFolder: URL(fileURLWithPath: invocation.value("--out") ?? "summit-demo"))
            if let seed = invocation.value("--seed") {
                guard let value = UInt64(seed) else { throw CLIError.usage("--seed needs a whole number 0 or more", command: invocation.commandPath) }
                options.seed = value
            }
            options.osm = invocation.values("--osm").map { URL(fileURLWithPath: $0) }
            options.bbox = try invocation.value("--bbox").map { try ResortCommand.boundingBox($0, option: "--bbox", invocation) }
            options.snapshotDate = invocation.value("--snapshot-date")
            guard (options.bbox == nil && options.snapshotDate == nil) || !options.osm.isEmpty else {
                throw CLIError.usage("--bbox and --snapshot-date go with a real extract; give it with --osm FILE", command: invocation.commandPath)
            }
            options.elevation = invocation.values("--elevation").map { URL(fileURLWithPath: $0) }
            options.resortID = invocation.value("--resort")
            let console = invocation.console
            let workspace = try invocation.workspace()
            let database = try SummitDatabase(workspace: workspace)
            console.note("preparing Summit's database…")
            let configuration = try await database.prepare()
            try await PostgresConnection.withConnection(configuration) { connection in
                try await Migrator(source: try workspace.migrationSource()).migrate(on: connection) { _ in }
            }
            let outcome = try await AppSession.with(workspace) { [options] session in
                try await Demo(session: session, options: options, say: { console.note($0) }).run()
            }
            if invocation.json {
                try console.json(outcome.plan)
                return 0
            }
            console.out(outcome.plan.text)
            console.out("")
            console.out("meet request \(outcome.requestID): sent by ann, accepted by bob after re-validating both routes on \(outcome.datasetVersion)")
            MeetCommand.printSides(outcome.activation, console)
            console.out("")
            console.out("picture: \(outcome.files[0])" + (outcome.files.count > 2 ? " (and \(outcome.files[2]))" : ""))
            console.out("GeoJSON: \(outcome.files[1])")
            let elapsed = clock.now - started
            console.out("done in \(ResortPipeline.elapsed(elapsed)); try: summit meet plan --resort \(outcome.resortID) --as ann --friend bob")
            return 0
        })
}
