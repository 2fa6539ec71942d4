import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// Real overpass-turbo GeoJSON and a cut extract through the real `summit`
/// binary: Trysil's two exports are one snapshot, stored as one document,
/// the same however often and in whatever order they are ingested; its
/// coordinate-derived node ids survive jsonb and bigint all the way to a build.
@Suite(.serialized) struct ResortGeoJSONCLITests {
    @Test("Trysil's pistes and lifts GeoJSON ingest as one snapshot, review, apply and build",
          .enabled(if: SharedOSMData.isPresent, SharedOSMData.missingReason))
    func trysilFromTwoExports() async throws {
        let pistes = SharedOSMData.folder.appendingPathComponent("trysil-no-2024-02-14.pistes.geojson")
        let lifts = SharedOSMData.folder.appendingPathComponent("trysil-no-2024-02-13.lifts.geojson")
        try await CLIHarness.withFreshDatabase { cli in
            // Bad boxes are refused before anything is written.
            let upsideDown = try await cli.fails("resort", "ingest", "trysil", "--osm", pistes.path, "--osm", lifts.path,
                                                 "--bbox", "61.334,12.149,61.293,12.248", "--assume-flat")
            #expect(upsideDown.stderr.contains("south edge 61.334 is not below its north edge 61.293; write the box as S,W,N,E"))
            let elsewhere = try await cli.fails("resort", "ingest", "trysil", "--osm", pistes.path, "--osm", lifts.path,
                                                "--bbox", "42.518,1.588,42.580,1.738", "--assume-flat")
            #expect(elsewhere.stderr.contains("no way of trysil-no-2024-02-13.lifts.geojson + trysil-no-2024-02-14.pistes.geojson has a vertex inside --bbox"))
            #expect(try await cli.scalar("select count(*) from mountain.resorts", as: Int.self) == 0)

            let ingested = try await cli.ok("resort", "ingest", "trysil", "--osm", pistes.path, "--osm", lifts.path, "--assume-flat", "--json")
            #expect(ingested.stderr.contains("trysil-no-2024-02-14.pistes.geojson: GeoJSON, 167 ways (0 from polygons), 0 node features"))
            #expect(ingested.stderr.contains("trysil-no-2024-02-13.lifts.geojson: GeoJSON, 40 ways (3 from polygons), 0 node features"))
            #expect(ingested.stderr.contains("merged: 207 ways, 1550 nodes, of which 1550 take ids derived from their coordinates"))
            #expect(ingested.json["report"]["graph"]["nodes"].int ?? 0 > 0)
            #expect(ingested.json["snapshot_stored"].bool == true)

            // One row, dated by the newer export, holding one Overpass JSON document that names both files.
            #expect(try await cli.scalar("select count(*) from mountain.osm_snapshots", as: Int.self) == 1)
            #expect(try await cli.scalar("select to_char(snapshot_date, 'YYYY-MM-DD') || ' ' || format || ' ' || source_name from mountain.osm_snapshots",
                                         as: String.self)
                == "2024-02-14 overpass_json trysil-no-2024-02-13.lifts.geojson + trysil-no-2024-02-14.pistes.geojson")
            let sha = try await cli.scalar("select sha256 from mountain.osm_snapshots", as: String.self)
            #expect(try await cli.scalar("select encode(sha256(bytes), 'hex') from mountain.osm_snapshots", as: String.self) == sha)
            let recorded = try await cli.scalar("""
                select string_agg((s ->> 'name') || ' ' || (s ->> 'format') || ' ' || (s ->> 'sha256') || ' ' || (s ->> 'bytes'), '; ')
                from mountain.osm_snapshots, jsonb_array_elements(convert_from(bytes, 'UTF8')::jsonb -> 'sources') s
                """, as: String.self)
            let expected = try await cli.scalar("""
                select \(lifts.lastPathComponent) || ' geojson ' || encode(sha256(\(try Data(contentsOf: lifts))), 'hex') || ' ' || \(try Data(contentsOf: lifts).count)
                    || '; ' || \(pistes.lastPathComponent) || ' geojson ' || encode(sha256(\(try Data(contentsOf: pistes))), 'hex') || ' ' || \(try Data(contentsOf: pistes).count)
                """, as: String.self)
            #expect(recorded == expected)

            let reviewed = try await cli.ok("resort", "review", "trysil", "--sample", "0")
            #expect(reviewed.stdout.contains("resort trysil, snapshot 2024-02-14 (osm sha256 \(sha.prefix(12))…, elevation assume_flat)"))
            #expect(reviewed.stdout.contains("open lift tops reaching an open run"))

            // Again, in the other order, and with Trysil's own box (SOURCES.md), which keeps everything: the identical snapshot.
            let again = try await cli.ok("resort", "ingest", "trysil", "--osm", lifts.path, "--osm", pistes.path, "--assume-flat")
            #expect(again.stdout.contains("kept the identical snapshot 2024-02-14"))
            let boxed = try await cli.ok("resort", "ingest", "trysil", "--osm", pistes.path, "--osm", lifts.path, "--assume-flat",
                                         "--bbox", "61.293,12.149,61.334,12.248")
            #expect(boxed.stderr.contains("cut to 61.293,12.149,61.334,12.248: 207 of 207 ways"))
            #expect(boxed.stdout.contains("kept the identical snapshot 2024-02-14"))
            #expect(try await cli.scalar("select count(*) from mountain.osm_snapshots", as: Int.self) == 1)
            #expect(try await cli.scalar("select sha256 from mountain.osm_snapshots", as: String.self) == sha)

            // Connectors between coordinate-derived nodes (19-digit ids) go through jsonb, bigint rows and the build exactly.
            try await cli.ok("resort", "review", "trysil", "--accept", "all", "--sample", "0")
            #expect(try await cli.ok("resort", "apply", "trysil", "--json").json["staged"].bool == true)
            let connectors = try await cli.scalar("select count(*) from mountain.canonical_connector", as: Int.self)
            #expect(connectors > 0)
            #expect(try await cli.scalar("""
                select count(*) from mountain.canonical_connector
                where from_osm_node_id >= 2000000000000000000 and to_osm_node_id >= 2000000000000000000
                """, as: Int.self) == connectors)
            let built = try await cli.ok("resort", "build", "trysil", "--json")
            #expect(built.json["identity"]["snapshot_date"].string == "2024-02-14")
            #expect(built.json["report"]["connectors"].int == connectors, "every connector found both its nodes in the snapshot")
        }
    }
}
