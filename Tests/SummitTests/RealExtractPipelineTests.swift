import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// Every real extract in ../shared/data/osm through ingest → review → apply →
/// build with the real `summit` binary: each builds, its report names the
/// counts, and two processes build it to the same bytes.
@Suite(.serialized) struct RealExtractPipelineTests {
    @Test("every real extract goes through ingest and build, identically in two processes",
          .enabled(if: SharedOSMData.isPresent, SharedOSMData.missingReason))
    func everyRealExtractBuilds() async throws {
        let extracts = try SharedOSMData.extracts()
        #expect(!extracts.isEmpty, "no *.ski.osm.json in \(SharedOSMData.folder.path)")
        let tiles = SharedOSMData.demTiles()
        try await CLIHarness.withFreshDatabase { cli in
            for extract in extracts {
                let resort = String(extract.lastPathComponent.prefix { $0 != "-" })
                // The DEM where it covers the extract; flat, by the operator's explicit choice, where not.
                var ingest = ["resort", "ingest", resort, "--osm", extract.path, "--json"]
                var outcome = try await cli.run(ingest + tiles.flatMap { ["--elevation", $0.path] })
                if outcome.status != 0 {
                    #expect(outcome.stderr.contains("no elevation"), "\(resort): \(outcome.stderr)")
                    ingest.append("--assume-flat")
                    outcome = try await cli.run(ingest)
                }
                try #require(outcome.status == 0, "\(resort) ingest failed: \(outcome.stderr)")
                let policy = outcome.json["report"]["elevation_policy"].string ?? "?"
                try await cli.ok("resort", "review", resort, "--accept", "all", "--sample", "20")
                try await cli.ok("resort", "apply", resort)

                let first = try await cli.ok("resort", "build", resort, "--dry-run", "--json")
                let built = try await cli.ok("resort", "build", resort, "--json")
                let sha = try #require(built.json["identity"]["content_sha256"].string)
                #expect(first.json["identity"]["content_sha256"].string == sha, "\(resort): two processes built different bytes")
                #expect(first.json["identity"]["blob_sha256"].string == built.json["identity"]["blob_sha256"].string)

                let report = built.json["report"]
                let nodes = report["nodes"].int ?? 0
                let edges = report["edges"].int ?? 0
                let lifts = report["lifts"].int ?? 0
                let components = report["connected_components"].int ?? 0
                let difficulties = ["green", "blue", "black", "doubleBlack", "terrainPark", "unrated"]
                    .compactMap { name in report["runs_by_difficulty"][name].int.map { "\(name) \($0)" } }
                #expect(nodes > 0 && edges > 0 && lifts > 0 && components > 0, "\(resort): \(built.stdout)")
                #expect(!difficulties.isEmpty)
                print("""
                    \(extract.lastPathComponent) (elevation \(policy)): \(nodes) nodes, \(edges) edges, runs [\(difficulties.joined(separator: ", "))], \
                    \(lifts) lifts, \(components) components, largest strongly connected \(report["largest_strongly_connected_component"].int ?? 0); \
                    lift tops reaching a run \(report["routability"]["lift_tops_reaching_run"].int ?? 0)/\(report["routability"]["lift_tops"].int ?? 0); \
                    sha256 \(sha)
                    """)
                // Published and fetched back as a client, it verifies.
                try await cli.ok("resort", "publish", resort, "--manifest-version", "1", "--content-sha256", sha)
                #expect(try await cli.ok("resort", "get", resort, "--json").json["verified"].bool == true)
            }
        }
    }
}
