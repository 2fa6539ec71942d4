import Digest
import Foundation
import MountainGraph
import Postgres

/// `summit resort …`: the canonical resort pipeline (the seed's operator
/// runbook on local files): ingest → review → apply → build → publish, then
/// get / export as a client sees the result. Writes run as the service role.
enum ResortCommand {
    static let command = Command(
        name: "resort",
        summary: "Resort graphs: fetch from Overpass or ingest an OSM extract, review, apply, build, publish, get, export; synthetic resorts.",
        discussion: """
            The stages leave immutable artifacts: a snapshot and a manifest draft (ingest, review), a staged \
            manifest version (apply), a graph blob (build), a publication that moves the resort's active \
            pointer (publish). Clients see nothing until publish.
            """,
        subcommands: [list, catalogCommand, fetchCommand, ingest, review, apply, build, publish, get, export, packCommand, synth])

    static let json = Command.Option.flag("--json", "print the result as JSON")
    static let resortArgument = Command.Argument(name: "RESORT", help: "the resort id, like vail or grandvalira")

    static let ingest = Command(
        name: "ingest",
        summary: "Store an OSM extract as the resort's snapshot, draft a manifest from its named ways, and print the review report.",
        discussion: """
            The extract (Overpass JSON, OSM XML or overpass-turbo GeoJSON; several --osm files are merged) and \
            elevation files are checked and a draft is made before anything is written; then the resort (when \
            new), the snapshot, the resort's snapshot pin and the draft are stored in one transaction. GeoJSON \
            carries no node ids: vertices with identical coordinates become one vertex, with the id of a \
            node/<n> Point feature there or else an id derived from the coordinates. --bbox keeps the ways with \
            a vertex inside the box (whole) and the nodes inside it. One unmodified Overpass JSON / OSM XML file \
            is stored as it is; anything else as one Overpass JSON document made from the inputs, naming each \
            file and its sha256. The snapshot date comes from --snapshot-date, else the newest of the files' \
            dates (osm3s.timestamp_osm_base, GeoJSON timestamp, or a date in the file name). Without \
            --expected-canonical-trails/-lifts the drafted identity counts are used (and marked not reviewed).
            """,
        arguments: [resortArgument],
        options: [
            .value("--osm", "FILE", "an OSM extract: Overpass JSON (out body / out geom), OSM XML or overpass-turbo GeoJSON (required; several are merged)", repeatable: true),
            .value("--elevation", "FILE", "an SRTM tile (.hgt, .hgt.zip) or an elevation map (.json); repeatable", repeatable: true),
            .flag("--assume-flat", "build ways with no elevation flat, in drawing direction (extracts no DEM covers)"),
            .value("--snapshot-date", "YYYY-MM-DD", "the date of the OSM data (default: the newest date the files carry or have in their names)"),
            .value("--name", "NAME", "the resort's name, for a new resort (default: its id)"),
            .value("--timezone", "ZONE", "the resort's IANA time zone, for a new resort (e.g. Europe/Andorra)"),
            .value("--bbox", "S,W,N,E", "keep only the ways with a vertex in this box (whole) and the nodes in it; also a new resort's box (default: the extract's extent)"),
            .value("--lat-lon", "LAT,LON", "the resort's centre, for a new resort (default: the middle of the box)"),
            .value("--expected-canonical-trails", "N", "reviewed count of unique routable trail identities"),
            .value("--expected-canonical-lifts", "N", "reviewed count of unique routable lift identities"),
            .flag("--canonical-counts-reviewed", "the expected counts were checked against the official map"),
            .value("--headline-trails", "N", "the resort's advertised number of trails"),
            .value("--headline-lifts", "N", "the resort's advertised number of lifts"),
            .value("--evidence-observed-at", "YYYY-MM-DD", "when the evidence was looked at"),
            .value("--evidence-url", "URL", "where the counts come from; repeatable", repeatable: true),
            json,
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let osmPaths = invocation.values("--osm")
            guard !osmPaths.isEmpty else { throw CLIError.usage("\(invocation.commandPath) needs --osm", command: invocation.commandPath) }
            let box = try invocation.value("--bbox").map { try boundingBox($0, option: "--bbox", invocation) }
            let extract = try OSMExtract(files: osmPaths.map { URL(fileURLWithPath: $0) }, snapshotDate: invocation.value("--snapshot-date"), bbox: box)
            extract.summary.forEach { invocation.console.note($0) }
            var request = IngestRequest(resortID: resortID, extract: extract)
            request.elevation = try invocation.values("--elevation").map { try ElevationInput(file: URL(fileURLWithPath: $0)) }
            request.elevationPolicy = invocation.flag("--assume-flat") ? .assumeFlat : .fail
            request.name = invocation.value("--name")
            request.timezone = invocation.value("--timezone")
            request.bbox = box.map { ($0.south, $0.west, $0.north, $0.east) }
            if let text = invocation.value("--lat-lon") {
                let values = try coordinates(text, count: 2, option: "--lat-lon", invocation)
                request.center = (values[0], values[1])
            }
            request.expectedTrailCount = try invocation.value("--expected-canonical-trails").map { try count($0, "--expected-canonical-trails", invocation) }
            request.expectedLiftCount = try invocation.value("--expected-canonical-lifts").map { try count($0, "--expected-canonical-lifts", invocation) }
            request.canonicalCountsReviewed = invocation.flag("--canonical-counts-reviewed")
            request.headlineTrailCount = try invocation.value("--headline-trails").map { try count($0, "--headline-trails", invocation) }
            request.headlineLiftCount = try invocation.value("--headline-lifts").map { try count($0, "--headline-lifts", invocation) }
            if let observed = invocation.value("--evidence-observed-at") {
                guard OSMExtract.isoDate(observed) != nil else {
                    throw CLIError.usage("--evidence-observed-at needs a date like 2026-08-09", command: invocation.commandPath)
                }
                request.evidenceObservedAt = observed
            }
            request.evidenceURLs = invocation.values("--evidence-url")
            let console = invocation.console
            let printout = try await pipeline(invocation) { [request] pipeline in
                try await pipeline.ingestAndReport(request) { console.note($0) }
            }
            if invocation.json {
                try console.json(printout)
            } else {
                console.out(printout.text(request))
            }
            return 0
        })

    static let review = Command(
        name: "review",
        summary: "Print the review report of the resort's newest manifest draft; accept proposals or submit an edited draft.",
        discussion: """
            The report builds the draft as it stands, with each kind of pending proposal (identities for unclaimed \
            ways, connectors, rendezvous points) and with all of them, and gives for each: open lift tops reaching \
            an open run, the largest strongly connected component over open edges, closed run edges and why, and a \
            meet sample (--sample N random pairs of positions on open runs, fixed --seed, an intermediate and an \
            advanced skier, all lifts open, 10:30 local). Accepted proposals and edited drafts become new \
            revisions, only if they build. To edit by hand: write the draft with --out FILE, change its rows \
            (trails, lifts, connectors, rendezvous_points, counts, evidence), then give it back with --draft FILE; \
            add --repropose to propose again for the edited rows.
            """,
        arguments: [resortArgument],
        options: [
            .value("--accept", "all|claims|connectors|rendezvous|N,N,…", "accept pending proposals: all, whole kinds, or by number (may be combined: claims,12,40)"),
            .value("--draft", "FILE", "an edited draft to review and store as the next revision"),
            .flag("--repropose", "propose identities, connectors and rendezvous points again for the draft's rows"),
            .value("--out", "FILE", "write the (resulting) draft to FILE for editing"),
            .value("--sample", "N", "pairs in each stage's meet sample (default 200; 0 skips it)"),
            .value("--seed", "N", "the meet sample's seed (default 1)"),
            json,
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            var change = ResortPipeline.ReviewChange()
            if let accept = invocation.value("--accept") {
                for word in accept.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    if word == "all" {
                        change.acceptKinds = Set(ManifestDraft.ProposalKind.allCases)
                    } else if let kind = ManifestDraft.ProposalKind(rawValue: word) {
                        change.acceptKinds.insert(kind)
                    } else if let number = Int(word), number > 0 {
                        change.acceptNumbers.append(number)
                    } else {
                        throw CLIError.usage("--accept takes all, claims, connectors, rendezvous or proposal numbers, not \"\(word)\"",
                                             command: invocation.commandPath)
                    }
                }
            }
            change.repropose = invocation.flag("--repropose")
            change.sampling.pairs = try invocation.wholeNumber("--sample", default: 200, minimum: 0)
            guard let seed = UInt64(invocation.value("--seed") ?? "1") else {
                throw CLIError.usage("--seed needs a whole number 0 or more", command: invocation.commandPath)
            }
            change.sampling.seed = seed
            if let path = invocation.value("--draft") {
                change.editedDraft = (try ResortFiles.read(URL(fileURLWithPath: path), what: "draft"), path)
            }
            let (report, draft) = try await pipeline(invocation) { [change] pipeline in
                let report = try await pipeline.review(resortID, change: change)
                return (report, try await pipeline.latestDraft(resortID).draft)
            }
            if let out = invocation.value("--out") {
                try ResortFiles.write(try draft.fileBytes(), to: URL(fileURLWithPath: out), what: "draft")
                invocation.console.note("wrote draft revision \(report.draftRevision) to \(out)")
            }
            if invocation.json {
                try invocation.console.json(report)
            } else {
                invocation.console.out(report.text())
                invocation.console.out("next: " + (report.hasPendingProposals ? "summit resort review \(resortID) --accept all (or by kind or number), then " : "")
                                       + "summit resort apply \(resortID)")
            }
            return 0
        })

    static let apply = Command(
        name: "apply",
        summary: "Stage the newest draft as the resort's next manifest version (never touches what clients see).",
        discussion: "Unchanged content stages nothing and names the existing version. --dry-run validates and rolls back.",
        arguments: [resortArgument],
        options: [.flag("--dry-run", "validate and show the version it would get, then roll back"), json],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let outcome = try await pipeline(invocation) { try await $0.apply(resortID, dryRun: invocation.flag("--dry-run")) }
            if invocation.json {
                try invocation.console.json(outcome)
                return 0
            }
            let what = outcome.dryRun
                ? (outcome.staged ? "would stage" : "would stage nothing: the newest manifest already has this content,")
                : (outcome.staged ? "staged" : "staged nothing: the newest manifest already has this content,")
            invocation.console.out("\(what) \(resortID) manifest v\(outcome.manifestVersion) from draft revision \(outcome.draftRevision): "
                + "\(outcome.trails) trails, \(outcome.lifts) lifts, \(outcome.connectors) connectors, \(outcome.rendezvousPoints) rendezvous points")
            if outcome.dryRun && outcome.staged {
                invocation.console.out("next: summit resort apply \(resortID)")
                return 0
            }
            invocation.console.out("next: summit resort build \(resortID) --manifest-version \(outcome.manifestVersion)")
            if !outcome.staged {
                invocation.console.out("to change it: \(ResortPipeline.restageSteps(resortID))")
            }
            return 0
        })

    static let build = Command(
        name: "build",
        summary: "Build a staged manifest from the pinned snapshot into an immutable graph blob (progress on stderr).",
        discussion: """
            The same (resort, manifest, snapshot, graph version) built before is returned as-is. Any integrity \
            failure (missing, duplicate, multiply claimed, disconnected or branched identity, …) stores nothing \
            and names each identity. Publish the printed identity to make it what clients get.
            """,
        arguments: [resortArgument],
        options: [
            .value("--manifest-version", "N", "the staged manifest to build (default: the newest)"),
            .value("--snapshot-date", "YYYY-MM-DD", "the snapshot to build from (default: the resort's pin)"),
            .flag("--dry-run", "build and print the identity without storing anything"),
            json,
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let version = try invocation.value("--manifest-version").map { try GridsCommand.number($0, "--manifest-version", invocation) }
            let console = invocation.console
            let outcome: BuildOutcome
            do {
                outcome = try await pipeline(invocation) { pipeline in
                    try await pipeline.build(resortID, manifestVersion: version, snapshotDate: invocation.value("--snapshot-date"),
                                             dryRun: invocation.flag("--dry-run")) { console.note($0) }
                }
            } catch let refusal as BuildRefusal {
                throw refusal.cliError
            }
            if invocation.json {
                try console.json(outcome)
                return 0
            }
            let identity = outcome.identity
            console.out("status: \(outcome.status)\(outcome.cached ? " (built before; returned as-is)" : outcome.dryRun ? " (dry run; nothing stored)" : "")")
            console.out("manifest_version: \(identity.manifestVersion)\nsnapshot_date: \(identity.snapshotDate)\ngraph_version: \(identity.graphVersion)")
            console.out("sha256: \(identity.contentSHA256)\nfingerprint: \(identity.fingerprint)\ndataset_version: \(identity.datasetVersion)")
            console.out("blob: \(outcome.uncompressedSize) bytes of canonical JSON, \(outcome.compressedSize) raw-deflated (blob sha256 \(identity.blobSHA256))")
            if let report = outcome.report { console.out(report.lines.joined(separator: "\n")) }
            if outcome.dryRun {
                console.out("next: summit resort build \(resortID) --manifest-version \(identity.manifestVersion)"
                    + (invocation.value("--snapshot-date") == nil ? "" : " --snapshot-date \(identity.snapshotDate)"))
            } else {
                console.out("next: \(identity.publishCommand)")
            }
            return 0
        })

    static let publish = Command(
        name: "publish",
        summary: "Publish an exact built identity: re-validate, then move the resort's active pointer (an older identity rolls back).",
        arguments: [resortArgument],
        options: [
            .value("--manifest-version", "N", "the built manifest version (required)"),
            .value("--content-sha256", "SHA", "the content sha256 the build printed (required)"),
            .value("--graph-version", "V", "the graph version (default \(MountainGraph.graphVersion))"),
            .value("--snapshot-date", "YYYY-MM-DD", "the build's snapshot date (default: the one of the build with that sha256)"),
            json,
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let version = try GridsCommand.number(try invocation.required("--manifest-version"), "--manifest-version", invocation)
            let sha = try invocation.required("--content-sha256")
            let outcome = try await pipeline(invocation) { pipeline in
                try await pipeline.publish(resortID, manifestVersion: version, contentSHA256: sha,
                                           graphVersion: invocation.value("--graph-version") ?? MountainGraph.graphVersion,
                                           snapshotDate: invocation.value("--snapshot-date"))
            }
            if invocation.json {
                try invocation.console.json(outcome)
                return 0
            }
            let verb = switch outcome.status {
            case "published": "published"
            case "rolled_back": "rolled back to"
            case "reactivated": "reactivated"
            default: "already active:"
            }
            invocation.console.out("\(verb) \(outcome.identity.line)")
            if let previous = outcome.previous, outcome.status != "already_active" {
                invocation.console.out("previously active: \(previous.datasetVersion)")
                invocation.console.out("to go back: \(previous.publishCommand)")
            }
            invocation.console.out("next: summit resort get \(resortID)   (fetch and verify it as a client does)")
            return 0
        })

    static let identityOptions: [Command.Option] = [
        .value("--as", "USER", "fetch as this user (username, email or id), or anon (default: the service role)"),
        .value("--dataset-version", "m<N>-<V>-<SHA>", "exact replay of this full dataset identity"),
        .value("--manifest-version", "N", "with --graph-version and --content-sha256: exact replay; alone: newest publication of N"),
        .value("--graph-version", "V", "part of an exact identity"),
        .value("--content-sha256", "SHA", "part of an exact identity"),
    ]

    static let get = Command(
        name: "get",
        summary: "Fetch the resort's graph as a client does (get_resort_graph) and verify it; default: the active publication.",
        discussion: """
            With --cached-manifest-version and --cached-content-sha256 matching the active identity the \
            answer is cache_valid and carries no graph. A served graph is accepted only after the ingress \
            checks (blob and content SHA-256, identity, fingerprint, node/edge identity, ranges); --out \
            writes its canonical JSON, whose SHA-256 is the content sha256.
            """,
        arguments: [resortArgument],
        options: identityOptions + [
            .value("--cached-manifest-version", "N", "the manifest version a client has cached"),
            .value("--cached-content-sha256", "SHA", "the content sha256 a client has cached"),
            .value("--out", "FILE", "write the verified graph's canonical JSON to FILE"),
            json,
        ],
        run: { invocation in
            let resortID = invocation.arguments[0]
            var request = try graphRequest(invocation)
            request.cachedManifestVersion = try invocation.value("--cached-manifest-version").map {
                try GridsCommand.number($0, "--cached-manifest-version", invocation)
            }
            request.cachedContentSHA256 = invocation.value("--cached-content-sha256")
            let fetch = try await fetching(invocation, resortID, request)
            try requireAnswer(fetch, resortID)
            if let out = invocation.value("--out"), let graph = fetch.graph {
                try ResortFiles.write(graph.canonicalJSON(), to: URL(fileURLWithPath: out), what: "graph")
                invocation.console.note("wrote the canonical JSON of \(fetch.identity?.datasetVersion ?? "") to \(out)")
            }
            if invocation.json {
                try invocation.console.json(GetPrintout(fetch))
            } else {
                invocation.console.out(GetPrintout(fetch).text)
            }
            return 0
        })

    static let export = Command(
        name: "export",
        summary: "Write the resort's published graph as GeoJSON (runs by difficulty, lifts, connectors, closed edges, nodes, rendezvous points).",
        arguments: [resortArgument],
        options: identityOptions + [.value("--geojson", "FILE", "where to write the GeoJSON (required)")],
        run: { invocation in
            let resortID = invocation.arguments[0]
            let path = try invocation.required("--geojson")
            let fetch = try await fetching(invocation, resortID, try graphRequest(invocation))
            try requireAnswer(fetch, resortID)
            guard let graph = fetch.graph, let identity = fetch.identity else {
                throw CLIError("get_resort_graph answered \(fetch.status) without a graph", fix: "ask without cached identity options")
            }
            try ResortFiles.write(graph.geoJSON(), to: URL(fileURLWithPath: path), what: "GeoJSON")
            invocation.console.out("wrote \(identity.datasetVersion) to \(path): \(graph.nodes.count) nodes, \(graph.edges.count) edges")
            return 0
        })

    static let synth = Command(
        name: "synth",
        summary: "Write a deterministic synthetic resort as Overpass JSON (peaks, lifts, runs, connectors, elevations).",
        discussion: "Size 1 is about a mid-sized real resort; size 10 and 100 make resorts ten and a hundred times larger. Same seed and size, same bytes.",
        options: [
            .value("--seed", "N", "the generator's seed (required)"),
            .value("--size", "S", "how large: 1, 10, 100, … (required)"),
            .value("--out", "FILE", "where to write the Overpass JSON (required)"),
            json,
        ],
        run: { invocation in
            guard let seed = UInt64(try invocation.required("--seed")) else {
                throw CLIError.usage("--seed needs a whole number 0 or more", command: invocation.commandPath)
            }
            let size = try GridsCommand.number(try invocation.required("--size"), "--size", invocation)
            guard size <= 1000 else {
                throw CLIError.usage("--size goes up to 1000 (a hundred thousand peaks' worth of OSM)", command: invocation.commandPath)
            }
            let out = try invocation.required("--out")
            let bytes = SyntheticResort(seed: seed, size: size).overpassJSON()
            try ResortFiles.write(bytes, to: URL(fileURLWithPath: out), what: "synthetic resort")
            if invocation.json {
                try invocation.console.json(SynthPrintout(seed: seed, size: size, bytes: bytes.count, sha256: SHA256.hex(bytes), file: out))
            } else {
                invocation.console.out("wrote synthetic resort seed \(seed) size \(size) to \(out): \(bytes.count) bytes, sha256 \(SHA256.hex(bytes))")
                invocation.console.out("next: summit resort ingest RESORT --osm \(out) --snapshot-date YYYY-MM-DD")
            }
            return 0
        })

    // MARK: - Helpers

    /// Opens Summit's database and runs `body` on a pipeline over it.
    static func pipeline<T: Sendable>(_ invocation: Invocation, _ body: @Sendable (ResortPipeline) async throws -> T) async throws -> T {
        try await AppSession.with(try invocation.workspace()) { session in
            try await body(ResortPipeline(connection: session.connection))
        }
    }

    static func fetching(_ invocation: Invocation, _ resortID: String, _ request: GraphRequest) async throws -> GraphFetch {
        do {
            return try await AppSession.with(try invocation.workspace()) { session in
                let caller: Caller
                switch invocation.value("--as")?.lowercased() {
                case nil, "service", "service_role": caller = .serviceRole
                case "anon": caller = .anon
                default: caller = try await session.caller(invocation.value("--as")!).caller
                }
                return try await ResortPipeline(connection: session.connection).fetch(resortID, request, as: caller)
            }
        } catch let refusal as IngressRefusal {
            throw CLIError(refusal.description, fix: "do not use this graph; rebuild and republish it, or report the corruption")
        }
    }

    /// `no_canonical_dataset` and `not_found` are refusals on the command line.
    static func requireAnswer(_ fetch: GraphFetch, _ resortID: String) throws {
        switch fetch.status {
        case "no_canonical_dataset":
            throw CLIError("no graph of \(resortID) is published (no_canonical_dataset)",
                           fix: "build and publish one: summit resort build \(resortID), then the summit resort publish line it prints")
        case "not_found":
            throw CLIError("that identity of \(resortID) was never published (not_found)"
                           + (fetch.current.map { "; the active one is \($0.datasetVersion)" } ?? ""),
                           fix: "give a dataset identity that was published, or none for the active one")
        default:
            return
        }
    }

    static func graphRequest(_ invocation: Invocation) throws -> GraphRequest {
        var request = GraphRequest()
        if let text = invocation.value("--dataset-version") {
            guard let version = DatasetVersion(text) else {
                throw CLIError.usage("--dataset-version \(text) is not m<manifest>-<graph version>-<64-hex sha256>", command: invocation.commandPath)
            }
            request.manifestVersion = version.manifestVersion
            request.graphVersion = version.graphVersion
            request.contentSHA256 = version.contentSHA256
        }
        if let text = invocation.value("--manifest-version") {
            request.manifestVersion = try GridsCommand.number(text, "--manifest-version", invocation)
        }
        request.graphVersion = invocation.value("--graph-version") ?? request.graphVersion
        request.contentSHA256 = invocation.value("--content-sha256") ?? request.contentSHA256
        if request.contentSHA256 != nil, request.graphVersion == nil {
            request.graphVersion = MountainGraph.graphVersion
        }
        return request
    }

    static func count(_ text: String, _ option: String, _ invocation: Invocation) throws -> Int {
        guard let value = Int(text), value >= 0 else {
            throw CLIError.usage("\(option) needs a whole number 0 or more", command: invocation.commandPath)
        }
        return value
    }

    /// `S,W,N,E`, checked: on the globe, south below north, west of east.
    static func boundingBox(_ text: String, option: String, _ invocation: Invocation) throws -> OSMBoundingBox {
        let values = try coordinates(text, count: 4, option: option, invocation)
        do {
            return try OSMBoundingBox(south: values[0], west: values[1], north: values[2], east: values[3])
        } catch {
            throw CLIError.usage("\(option) \(text): \(error)", command: invocation.commandPath)
        }
    }

    static func coordinates(_ text: String, count: Int, option: String, _ invocation: Invocation) throws -> [Double] {
        let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == count, values.allSatisfy(\.isFinite) else {
            throw CLIError.usage("\(option) needs \(count) comma-separated numbers", command: invocation.commandPath)
        }
        for (index, value) in values.enumerated() where abs(value) > (index % 2 == 0 ? 90 : 180) {
            throw CLIError.usage("\(option): \(value) is not a \(index % 2 == 0 ? "latitude" : "longitude")", command: invocation.commandPath)
        }
        return values
    }
}
