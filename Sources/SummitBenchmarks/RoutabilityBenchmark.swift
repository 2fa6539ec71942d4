import Foundation
import Summit
import MeetSolver
import MountainGraph

/// `summit bench routability`: how routable and meetable each real resort is
/// after review, beside the seed's strict rule (the draft's identities on
/// source topology alone) and connectors alone (the draft plus every
/// connector proposal, no identities for unclaimed ways, no rendezvous
/// points). Pure: no database; deterministic for a seed.
struct RoutabilityBenchmark: Sendable {
    struct Resort: Sendable {
        var name: String
        var files: [String]
        /// S, W, N, E.
        var bbox: [Double]?
    }

    /// The real resorts in `../shared/data/osm`; Andorra is cut into its three ski areas.
    static let resorts: [Resort] = [
        Resort(name: "Grandvalira", files: ["andorra-2025-01-19.ski.osm.json"], bbox: [42.518, 1.588, 42.580, 1.738]),
        Resort(name: "Pal-Arinsal", files: ["andorra-2025-01-19.ski.osm.json"], bbox: [42.526, 1.444, 42.578, 1.514]),
        Resort(name: "Ordino-Arcalís", files: ["andorra-2025-01-19.ski.osm.json"], bbox: [42.617, 1.474, 42.638, 1.505]),
        Resort(name: "Okemo", files: ["okemo-vt-2024-09-21.ski.osm.json"], bbox: nil),
        Resort(name: "Mammoth", files: ["mammoth-ca-2023-06.ski.osm.json"], bbox: nil),
        Resort(name: "Trysil", files: ["trysil-no-2024-02-14.pistes.geojson", "trysil-no-2024-02-13.lifts.geojson"], bbox: nil),
    ]

    /// The three ways of taking a resort, in the order printed.
    static let paths: [(name: String, kinds: Set<ManifestDraft.ProposalKind>)] = [
        ("strict (seed rule)", []),
        ("connectors only", [.connectors]),
        ("review --accept all", Set(ManifestDraft.ProposalKind.allCases)),
    ]

    struct Measurement: Codable, Sendable {
        var resort: String
        var nodes: Int
        var edges: Int
        var proposals: [String: Int]
        var paths: [ReviewStage]
        var milliseconds: Double
    }

    var folder: URL
    var sampling = ReviewStages.Sampling()
    /// Where to write each reviewed graph (`<resort>.json`, `<resort>.geojson`), if anywhere.
    var output: URL?

    /// Every resort's draft, proposals and the figures of each path.
    func run(_ resorts: [Resort] = Self.resorts, progress: (String) -> Void) throws -> [Measurement] {
        let elevation = try GraphBenchmark.demTiles(in: folder)
        return try resorts.map { resort in
            progress("reviewing \(resort.name)…")
            let started = ContinuousClock.now
            let snapshot = try Self.snapshot(resort, folder: folder, elevation: elevation)
            let drafted = try ManifestDrafter.draft(snapshot, resortID: "bench")
            let draft = try ManifestDraft.make(resortID: "bench", snapshot: snapshot, drafted: drafted, expectedTrailCount: nil,
                                               expectedLiftCount: nil, canonicalCountsReviewed: false)
            let stages = try ReviewStages.measure(draft, snapshot: snapshot, sampling: sampling, stages: Self.paths,
                                                  refusal: { SnapshotRefusal.doesNotBuild($0, source: resort.name) })
            let built = try GraphBuilder.build(osm: snapshot.osm, manifest: draft.withAllProposalsAccepted.manifest,
                                               parameters: BuildParameters(resortID: "bench", manifestVersion: 1, snapshotDate: snapshot.snapshotDate),
                                               elevation: snapshot.elevation, options: snapshot.options).graph
            let elapsed = ContinuousClock.now - started
            if let output {
                let stem = resort.name.lowercased().folding(options: .diacriticInsensitive, locale: nil)
                try ResortFiles.write(built.canonicalJSON(), to: output.appendingPathComponent(stem + ".json"), what: "graph")
                try ResortFiles.write(built.geoJSON(), to: output.appendingPathComponent(stem + ".geojson"), what: "GeoJSON")
            }
            return Measurement(
                resort: resort.name, nodes: built.nodes.count, edges: built.edges.count,
                proposals: ["claims": draft.claimProposals.count, "connectors": draft.proposals.count,
                            "rendezvous": draft.rendezvousProposals.count],
                paths: stages, milliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
    }

    /// The resort's snapshot as ingest would store it: its files read and
    /// merged, cut to its box.
    static func snapshot(_ resort: Resort, folder: URL, elevation: (any ElevationSource)?) throws -> SnapshotInputs {
        let box = try resort.bbox.map { try OSMBoundingBox(south: $0[0], west: $0[1], north: $0[2], east: $0[3]) }
        let extract = try OSMExtract(files: resort.files.map { folder.appendingPathComponent($0) }, snapshotDate: nil, bbox: box)
        let osm = extract.data
        let centre = osm.ways.first.flatMap { $0.nodeIDs.first }.flatMap { osm.nodes[$0] }.map { Coordinate(lat: $0.lat, lon: $0.lon) }
        let covered = centre.flatMap { elevation?.elevation(at: $0) } != nil
        return SnapshotInputs(snapshotDate: extract.snapshotDate, sourceName: resort.name, sha256: extract.sha256, osm: osm,
                              elevation: covered ? elevation : nil, elevationPolicy: covered ? .fail : .assumeFlat)
    }

    /// The figures as a table, each beside the targets.
    static func table(_ results: [Measurement]) -> String {
        var lines: [String] = []
        for result in results {
            lines.append("\(result.resort): \(result.nodes) nodes, \(result.edges) edges after review; proposals "
                         + result.proposals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                         + String(format: " (%.1f s)", result.milliseconds / 1000))
            for stage in result.paths {
                let r = stage.routability
                lines.append(String(format: "  %-38@ lift tops→run %4@  lift ends in SCC %4@  SCC nodes %4@  closed runs %4@  meets %3d/%d%@",
                                    stage.stage as NSString, Routability.percent(r.liftTopShare) as NSString,
                                    Routability.percent(r.componentLiftEndShare) as NSString,
                                    Routability.percent(r.componentNodeShare) as NSString,
                                    Routability.percent(r.closedRunShare) as NSString,
                                    stage.meetSample.met, stage.meetSample.pairs,
                                    (stage.meetSample.disagreements > 0 ? " (\(stage.meetSample.disagreements) disagree with reachability)" : "") as NSString))
                let reasons = stage.meetSample.failures.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                if !reasons.isEmpty && stage.meetSample.met > 0 { lines.append("      failures: " + reasons) }
            }
        }
        lines.append("targets after review --accept all: lift tops→run ≥ 95%, lift ends in one SCC ≥ 80%, meets ≥ 90% of pairs, 0 disagreements")
        return lines.joined(separator: "\n")
    }
}
