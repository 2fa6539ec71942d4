import Foundation
import JSONDepth
import MountainGraph
import Postgres

/// The result of `build`: the stored (or, in a dry run, computed) identity.
struct BuildOutcome: Codable, Sendable {
    /// `ready`: the blob exists. (Failures are thrown, nothing stored.)
    var status: String
    var identity: DatasetIdentity
    /// True when this exact tuple had been built before: the stored blob is returned as-is.
    var cached: Bool
    var dryRun: Bool
    var report: BuildSummary?
    var compressedSize: Int
    var uncompressedSize: Int

    enum CodingKeys: String, CodingKey {
        case status, identity, cached
        case dryRun = "dry_run"
        case report
        case compressedSize = "compressed_size"
        case uncompressedSize = "uncompressed_size"
    }
}

/// A build refused: every failure, each naming its identity; nothing was stored.
struct BuildRefusal: Error, CustomStringConvertible {
    let resortID: String
    let manifestVersion: Int
    let snapshotDate: String
    let failures: [BuildFailure]

    var description: String {
        let lines = failures.prefix(30).map { "  - \($0)" }.joined(separator: "\n")
        let more = failures.count > 30 ? "\n  … and \(failures.count - 30) more" : ""
        return "\(resortID) v\(manifestVersion) does not build from the \(snapshotDate) snapshot; nothing was stored:\n\(lines)\(more)"
    }

    var cliError: CLIError {
        CLIError(description, fix: "stage a corrected manifest: \(ResortPipeline.restageSteps(resortID)); "
                     + "or ingest a snapshot that has the ways named above: summit resort ingest \(resortID) --osm FILE --snapshot-date YYYY-MM-DD")
    }
}

extension ResortPipeline {
    /// Builds a staged manifest from a snapshot and stores the blob.
    ///
    /// `manifestVersion` defaults to the newest manifest, `snapshotDate` to the
    /// resort's pin. An existing blob for the same (resort, manifest,
    /// snapshot, graph version) is returned as-is: builds are immutable, and
    /// a changed overlay or row is a new manifest version (apply). A dry run
    /// builds and reports without storing.
    func build(_ resortID: String, manifestVersion: Int?, snapshotDate: String?, dryRun: Bool,
               progress: @Sendable (String) -> Void) async throws -> BuildOutcome {
        try await requireResort(resortID)
        let clock = ContinuousClock()
        let version: Int
        if let manifestVersion {
            version = manifestVersion
        } else {
            guard let newest = try await asService({ db in
                try await db.query("select max(manifest_version) from mountain.resort_canonical_manifest where resort_id = \(resortID)")
                    .scalar(Int?.self)
            }) else {
                throw CLIError("\(resortID) has no staged manifest", fix: "stage one first: summit resort apply \(resortID)")
            }
            version = newest
        }
        let date: String
        if let snapshotDate {
            guard let valid = OSMExtract.isoDate(snapshotDate) else {
                throw CLIError("--snapshot-date \(snapshotDate) is not a date", fix: "write it as YYYY-MM-DD")
            }
            date = valid
        } else if let pinned = try await pinnedSnapshotDate(resortID) {
            date = pinned
        } else {
            throw CLIError("snapshot_pending: \(resortID) has no pinned snapshot", fix: "ingest one: summit resort ingest \(resortID) --osm FILE")
        }
        let graphVersion = MountainGraph.graphVersion

        if !dryRun, let stored = try await storedBuild(resortID, version, date, graphVersion) {
            progress("\(resortID) v\(version) from the \(date) snapshot was built before; returning that blob as-is")
            return stored
        }

        progress("reading manifest v\(version) of \(resortID)…")
        let manifest = try await manifestDocument(resortID, version)
        progress("reading the \(date) snapshot…")
        var start = clock.now
        let snapshot = try await self.snapshot(resortID, date: date)
        progress("  decoded \(snapshot.sourceName): \(snapshot.osm.ways.count) ways, \(snapshot.osm.nodes.count) nodes (\(Self.elapsed(clock.now - start)))")
        progress("building graph \(graphVersion)…")
        start = clock.now
        let result: BuildResult
        do {
            result = try GraphBuilder.build(
                osm: snapshot.osm, manifest: manifest,
                parameters: BuildParameters(resortID: resortID, manifestVersion: version, snapshotDate: date),
                elevation: snapshot.elevation, options: snapshot.options)
        } catch {
            throw BuildRefusal(resortID: resortID, manifestVersion: version, snapshotDate: date, failures: error.failures)
        }
        progress("  \(result.graph.nodes.count) nodes, \(result.graph.edges.count) edges (\(Self.elapsed(clock.now - start)))")
        progress("encoding canonical JSON, raw deflate, SHA-256…")
        start = clock.now
        let blob = try result.graph.encodeBlob()
        progress("  \(blob.uncompressedSize) → \(blob.compressed.count) bytes (\(Self.elapsed(clock.now - start)))")
        let summary = BuildSummary(result.report)
        let computed = DatasetIdentity(
            resortID: resortID, manifestVersion: version, graphVersion: graphVersion, snapshotDate: date,
            contentSHA256: blob.contentSHA256, blobSHA256: blob.blobSHA256, datasetVersion: blob.datasetVersion,
            fingerprint: blob.fingerprint, nodeCount: blob.nodeCount, edgeCount: blob.edgeCount)
        if dryRun {
            return BuildOutcome(status: "ready", identity: computed, cached: false, dryRun: true, report: summary,
                                compressedSize: blob.compressed.count, uncompressedSize: blob.uncompressedSize)
        }

        progress("storing the blob…")
        let answer = try await asService { db in
            try await db.query("""
                select mountain.record_resort_graph_blob(
                  p_resort_id => \(resortID), p_manifest_version => \(version), p_snapshot_date => \(date)::date,
                  p_graph_version => \(graphVersion), p_blob => \(Data(blob.compressed)), p_sha256 => \(blob.contentSHA256),
                  p_blob_sha256 => \(blob.blobSHA256), p_fingerprint => \(blob.fingerprint),
                  p_node_count => \(blob.nodeCount), p_edge_count => \(blob.edgeCount),
                  p_uncompressed_size => \(blob.uncompressedSize), p_build_report => \(PostgresJSON(summary)))
                """).scalar(PostgresJSON<StoredBlobAnswer>.self).value
        }
        return BuildOutcome(status: "ready", identity: answer.identity, cached: answer.cached, dryRun: false,
                            report: summary, compressedSize: blob.compressed.count, uncompressedSize: blob.uncompressedSize)
    }

    /// The manifest rows of (resort, version), as the builder reads them.
    func manifestDocument(_ resortID: String, _ version: Int) async throws -> CanonicalManifest {
        let document = try await asService { db in
            try await db.query("""
                select mountain.canonical_manifest_document(\(resortID), \(version))::text
                """).scalar(String.self)
        }
        do {
            try JSONDepth.check(document.utf8)
            return try JSONDecoder().decode(CanonicalManifest.self, from: Data(document.utf8))
        } catch let error as JSONTooDeep {
            throw CLIError("manifest_unreadable: \(resortID) v\(version) rows cannot be read (\(error))",
                           fix: "stage a corrected manifest with summit resort apply")
        } catch let error as DecodingError {
            // manifest_unreadable: fail closed, never build from half a manifest.
            throw CLIError("manifest_unreadable: \(resortID) v\(version) rows cannot be read (\(ManifestDraft.explain(error))); nothing was built",
                           fix: "stage a corrected manifest: " + ResortPipeline.restageSteps(resortID))
        }
    }

    /// The stored build of one exact tuple, if any.
    private func storedBuild(_ resortID: String, _ version: Int, _ date: String, _ graphVersion: String) async throws -> BuildOutcome? {
        struct Row: Decodable {
            var identity: DatasetIdentity
            var report: BuildSummary?
            var compressedSize: Int
            var uncompressedSize: Int
        }
        let row = try await asService { db in
            try await db.query("""
                select mountain.graph_identity(b) as identity,
                       case when b.build_report <> '{}' then b.build_report end as report,
                       b.compressed_size, b.uncompressed_size
                from mountain.resort_graph_blob b
                where b.resort_id = \(resortID) and b.manifest_version = \(version)
                  and b.snapshot_date = \(date)::date and b.graph_version = \(graphVersion)
                """).first(as: Row.self)
        }
        return row.map {
            BuildOutcome(status: "ready", identity: $0.identity, cached: true, dryRun: false, report: $0.report,
                         compressedSize: $0.compressedSize, uncompressedSize: $0.uncompressedSize)
        }
    }

    static func elapsed(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.2f s", Double(seconds) + Double(attoseconds) * 1e-18)
    }
}

/// `record_resort_graph_blob`'s answer: the identity plus whether it existed.
struct StoredBlobAnswer: Codable, Sendable {
    var identity: DatasetIdentity
    var cached: Bool

    init(from decoder: any Decoder) throws {
        identity = try DatasetIdentity(from: decoder)
        cached = try decoder.container(keyedBy: Key.self).decode(Bool.self, forKey: .cached)
    }

    func encode(to encoder: any Encoder) throws {
        try identity.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(cached, forKey: .cached)
    }

    private enum Key: String, CodingKey { case cached }
}
