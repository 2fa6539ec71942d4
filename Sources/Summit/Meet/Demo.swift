import Foundation
import MeetSolver
import MountainGraph
import Postgres

/// `summit demo`: PowderMeet end to end on one machine. A resort goes
/// through the canonical pipeline (ingest → review → apply → build →
/// publish) and gets a status sidecar; two friends share positions; a meet
/// is planned, sent and accepted; the plan is printed and drawn.
struct Demo: Sendable {
    struct Options: Sendable {
        var seed: UInt64 = 7
        /// Real OSM files to merge; none for the synthetic resort.
        var osm: [URL] = []
        var bbox: OSMBoundingBox?
        var snapshotDate: String?
        var elevation: [URL] = []
        var resortID: String?
        var outputFolder: URL
    }

    let session: AppSession
    let options: Options
    let say: @Sendable (String) -> Void

    var pipeline: ResortPipeline { ResortPipeline(connection: session.connection) }

    /// What the demo produced, for the summary.
    struct Outcome: Sendable {
        var resortID: String
        var datasetVersion: String
        var plan: MeetPlanPrintout
        var requestID: String
        var activation: MeetActivation
        var files: [String]
    }

    func run() async throws -> Outcome {
        let resortID = options.resortID ?? (options.osm.isEmpty ? "demo-\(options.seed)" : Self.resortID(for: options.osm))
        let identity = try await publishResort(resortID)
        say("published \(resortID) \(identity.datasetVersion) (\(identity.nodeCount) nodes, \(identity.edgeCount) edges)")
        let graph = try await recordStatus(resortID, identity)
        let (ann, bob) = try await twoFriends()
        try await sharePositions(resortID, identity, graph, ann, bob)

        let planning = MeetPlanning(session: session, me: ann.person, friend: bob, caller: ann.caller)
        let planned = try await planning.plan(resortID: resortID, at: nil, myStart: nil, friendStart: nil, accuracy: nil, conditions: nil)
        let printout = MeetPlanPrintout(world: planned.world, solver: planned.solver, names: planning.names, outcome: planned.outcome,
                                        solveDuration: planned.solveDuration)
        guard case let .success(result) = planned.outcome else {
            throw CLIError("the demo planned no meet: \(printout.failure?.code ?? "") — \(printout.failure?.explanation ?? "")",
                           fix: "run it again; if it persists, report it with this output")
        }
        let request = MeetRequestPlan(world: planned.world, option: result.primary,
                                      senderAccuracy: MeetCommand.accuracy(of: planned.starts[0]),
                                      receiverAccuracy: MeetCommand.accuracy(of: planned.starts[1]))
        let sent = try await session.call("meet.send_meet_request", [("p_receiver_id", bob.id), ("p_plan", PostgresJSON(request))], as: ann.caller)
        let requestID = sent.json["request"]["id"].string ?? ""
        say("ann sent meet request \(requestID) to bob")
        let bobCaller = Caller.user(bob.id)
        let row = try await MeetCommand.fetchRequest(requestID, session: session, as: (bobCaller, bob))
        let activation = try await MeetActivation.activate(row, for: bob, other: ann.person, in: session, as: bobCaller, conditions: nil)
        try await session.call("meet.accept_meet_request", [("p_request_id", row.id)], as: bobCaller)
        say("bob re-validated both routes against \(identity.datasetVersion.prefix(24))… and accepted")

        let files = try draw(planned, names: planning.names)
        return Outcome(resortID: resortID, datasetVersion: identity.datasetVersion, plan: printout, requestID: requestID,
                       activation: activation, files: files)
    }

    // MARK: - The resort

    /// `demo-` and the first extract's file name up to its first dot, as a
    /// resort id: each extract publishes as a resort of its own.
    static func resortID(for files: [URL]) -> String {
        let stem = (files.first?.lastPathComponent ?? "").prefix { $0 != "." }.lowercased()
        let slug = String(stem.map { ($0.isLetter && $0.isASCII) || $0.isNumber ? $0 : "-" }.prefix(57))
        return "demo-" + (slug.isEmpty ? "osm" : slug)
    }

    /// Ingest → review (every proposal accepted, round-the-clock lift hours
    /// so the demo works at any hour) → apply →
    /// build → publish. Every stage is idempotent, so a second run reuses it all.
    func publishResort(_ resortID: String) async throws -> DatasetIdentity {
        let extract: OSMExtract
        if !options.osm.isEmpty {
            extract = try OSMExtract(files: options.osm, snapshotDate: options.snapshotDate, bbox: options.bbox)
            extract.summary.forEach(say)
        } else {
            extract = try OSMExtract(bytes: SyntheticResort(seed: options.seed, size: 1).overpassJSON(),
                                     sourceName: "synthetic-\(options.seed).json", snapshotDate: "2026-01-01")
        }
        var request = IngestRequest(resortID: resortID, extract: extract)
        request.elevation = try options.elevation.map { try ElevationInput(file: $0) }
        request.elevationPolicy = !options.osm.isEmpty && options.elevation.isEmpty ? .assumeFlat : .fail
        request.name = options.osm.isEmpty ? "Demo Peaks (synthetic, seed \(options.seed))" : extract.sourceName
        request.timezone = options.osm.isEmpty ? "Europe/Zurich" : nil
        request.bbox = options.bbox.map { ($0.south, $0.west, $0.north, $0.east) }
        say("ingesting \(extract.sourceName) as \(resortID)…")
        _ = try await pipeline.ingest(request) { _ in }

        var draft = try await pipeline.latestDraft(resortID).draft.withAllProposalsAccepted
        for index in draft.lifts.indices {
            draft.lifts[index].openHour = 0
            draft.lifts[index].closeHour = 24
        }
        say("review: accepted \(draft.trails.count) trail and \(draft.lifts.count) lift identities, \(draft.connectors.count) connectors, "
            + "\(draft.rendezvousPoints.count) rendezvous points")
        var change = ResortPipeline.ReviewChange(editedDraft: (try draft.fileBytes(), "demo draft"))
        change.sampling.pairs = 0
        _ = try await pipeline.review(resortID, change: change)
        let applied = try await pipeline.apply(resortID, dryRun: false)
        let build = try await pipeline.build(resortID, manifestVersion: applied.manifestVersion, snapshotDate: nil, dryRun: false) { _ in }
        let published = try await pipeline.publish(resortID, manifestVersion: build.identity.manifestVersion,
                                                    contentSHA256: build.identity.contentSHA256,
                                                    graphVersion: build.identity.graphVersion, snapshotDate: build.identity.snapshotDate)
        return published.identity
    }

    /// The hourly status refresh, simulated: every lift open, a few minutes'
    /// wait at each boarding point, observed now.
    func recordStatus(_ resortID: String, _ identity: DatasetIdentity) async throws -> MountainGraph {
        let fetch = try await pipeline.fetch(resortID, GraphRequest(), as: .serviceRole)
        guard let graph = fetch.graph else {
            throw CLIError("the published graph of \(resortID) could not be fetched", fix: "run summit resort get \(resortID)")
        }
        var edges: [String: [String: Any]] = [:]
        for (index, edge) in graph.edges.enumerated() where edge.kind == .lift {
            edges[edge.id] = ["is_open": true, "wait_minutes": edge.attributes.queueEntry ? Double(index % 7) : NSNull()]
        }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: edges, options: [.sortedKeys]), as: UTF8.self)
        try await session.connection.acting(as: .serviceRole) { db in
            _ = try await db.query("""
                select mountain.record_resort_status(\(resortID), \(identity.manifestVersion), \(identity.graphVersion),
                  \(identity.contentSHA256), summit.now(), 'summit demo', \(json)::jsonb)
                """)
        }
        say("recorded a status sidecar: \(edges.count) lift edges open, valid for an hour")
        return graph
    }

    // MARK: - The skiers

    /// ann (advanced) and bob (intermediate), friends; created when missing.
    func twoFriends() async throws -> ((caller: Caller, person: AppSession.Person), AppSession.Person) {
        func person(_ name: String, level: String) async throws -> AppSession.Person {
            let person: AppSession.Person
            if let found = try? await session.person(name) {
                person = found
            } else {
                person = try await UsersCommand.create(name: name, email: "\(name)@\(UsersCommand.emailDomain)", in: session)
            }
            try await session.call("social.update_profile", [("p_skill_level", level)], as: .user(person.id))
            return person
        }
        let ann = try await person("ann", level: "advanced")
        let bob = try await person("bob", level: "intermediate")
        try await session.call("social.send_friend_request", [("p_user_id", bob.id)], as: .user(ann.id))
        try await session.call("social.send_friend_request", [("p_user_id", ann.id)], as: .user(bob.id))
        say("ann (advanced) and bob (intermediate) are friends")
        return ((.user(ann.id), ann), bob)
    }

    /// Two positions that make a fair meet worth planning: ann on a lift top,
    /// bob partway down a run on another part of the resort, tried in a
    /// fixed order until the strict solver finds a meeting point for them.
    func sharePositions(_ resortID: String, _ identity: DatasetIdentity, _ graph: MountainGraph,
                        _ ann: (caller: Caller, person: AppSession.Person), _ bob: AppSession.Person) async throws {
        let world = try await MeetWorldLoader(session: session, caller: ann.caller)
            .load(resortID: resortID, skierIDs: [ann.person.id, bob.id])
        let solver = world.solver(cache: nil)
        let annID = ann.person.id.uuidString.lowercased(), bobID = bob.id.uuidString.lowercased()
        let tops = graph.nodes.filter { $0.kind == .liftTop }
        // Runs bob (intermediate) may ski: green or blue.
        let runs = graph.edges.filter {
            $0.kind == .run && $0.attributes.isOpen && $0.attributes.lengthMeters > 300 && ($0.attributes.difficulty ?? .blue) <= .blue
        }
        // The pair that meets soonest, among starts at least a kilometre apart
        // where both skiers have something to do on the way.
        var chosen: (top: GraphNode, run: GraphEdge, arrival: Double)?
        var lastFailure: MeetFailure?
        for top in tops.prefix(16) {
            for run in runs.reversed().prefix(32) where Geo.distance(top.coordinate, run.geometry[0]) > 1_000 {
                let outcome = solver.solve(SkierStart(skierID: annID, origin: .node(top.id)),
                                           SkierStart(skierID: bobID, origin: .edge(run.id, fraction: 0.4)))
                if case let .success(result) = outcome, result.primary.routeA.edgeIDs.count > 1, result.primary.routeB.edgeIDs.count > 1,
                   result.primary.arrival < chosen?.arrival ?? .infinity {
                    chosen = (top, run, result.primary.arrival)
                }
                lastFailure = outcome.error ?? lastFailure
            }
        }
        guard let (top, run, _) = chosen else {
            throw CLIError("found no two positions on \(resortID) with a meeting point between them"
                           + (lastFailure.map { " (last: \($0.code), \($0.explanation))" } ?? ""),
                           fix: "try another --seed, or an extract whose lifts and runs connect")
        }
        let along = MeetPicture.remainder(of: run.geometry, after: 0.4)[0]
        try await session.connection.acting(as: ann.caller) { db in
            _ = try await db.query("""
                select meet.broadcast_position(\(resortID), \(top.lat), \(top.lon), summit.now(), 6.0, null, null, null, \(top.id), null, null)
                """)
        }
        try await session.connection.acting(as: .user(bob.id)) { db in
            _ = try await db.query("""
                select meet.broadcast_position(\(resortID), \(along.lat), \(along.lon), summit.now(), 9.0, null, 8.0, null, null, \(run.id), 0.4)
                """)
        }
        say("ann shared her position at the top of \(top.id); bob his, 40 % down \(run.attributes.trailName ?? run.id)")
    }

    // MARK: - The picture

    func draw(_ planned: MeetPlanning.Planned, names: [String: String]) throws -> [String] {
        try FileManager.default.createDirectory(at: options.outputFolder, withIntermediateDirectories: true)
        let picture = MeetPicture(graph: planned.solver.liveGraph, result: planned.outcome.value, names: names,
                                  title: "PowderMeet demo · \(planned.world.identity.resortID) · ann and bob meet")
        let svg = options.outputFolder.appendingPathComponent("meet.svg")
        let geojson = options.outputFolder.appendingPathComponent("meet.geojson")
        try ResortFiles.write(Array(picture.svg().utf8), to: svg, what: "SVG picture")
        try ResortFiles.write(try picture.geoJSON(), to: geojson, what: "GeoJSON")
        var files = [svg.path, geojson.path]
        if let png = SVGRasterizer.convert(svg) { files.append(png.path) }
        return files
    }
}
