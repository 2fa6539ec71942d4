import Foundation
import MountainGraph
import Postgres

/// The operator's facts about a resort and its counts, given at ingest.
struct IngestRequest: Sendable {
    var resortID: String
    var extract: OSMExtract
    var elevation: [ElevationInput] = []
    var elevationPolicy: ElevationPolicy = .fail
    /// For a resort seen for the first time; the extract's extent otherwise.
    var name: String?
    var timezone: String?
    var bbox: (latMin: Double, lonMin: Double, latMax: Double, lonMax: Double)?
    var center: (lat: Double, lon: Double)?
    /// Reviewed canonical counts; the drafted identity counts when absent.
    var expectedTrailCount: Int?
    var expectedLiftCount: Int?
    var canonicalCountsReviewed = false
    var headlineTrailCount: Int?
    var headlineLiftCount: Int?
    var evidenceObservedAt: String?
    var evidenceURLs: [String] = []
}

/// What ingest stored and drafted.
struct IngestOutcome: Sendable {
    var resortCreated: Bool
    /// False when the same extract was already stored under this date.
    var snapshotStored: Bool
    var draftRevision: Int
    var draft: ManifestDraft
}

extension ResortPipeline {
    /// Checks the extract, drafts a manifest from its named ways and proposes
    /// connectors; only then stores the resort (when new), the snapshot, the
    /// pin and the draft, in one transaction. Any refusal writes nothing.
    func ingest(_ request: IngestRequest, progress: @Sendable (String) -> Void) async throws -> IngestOutcome {
        let resortID = request.resortID
        guard resortID.range(of: "^[a-z0-9][a-z0-9_-]{0,62}$", options: .regularExpression) != nil else {
            throw CLIError("\"\(resortID)\" is not a resort id",
                           fix: "use lowercase letters, digits, - and _ (like vail or grand-valira), at most 63 characters")
        }
        let extract = request.extract
        let inputs = SnapshotInputs(
            snapshotDate: extract.snapshotDate, sourceName: extract.sourceName, sha256: extract.sha256,
            osm: extract.data, elevation: try ElevationInput.layered(request.elevation),
            elevationPolicy: request.elevationPolicy)

        progress("drafting identities from the named ways of \(extract.sourceName) (\(extract.data.ways.count) ways)…")
        let drafted = try ManifestDrafter.draft(inputs, resortID: resortID)
        progress("proposing identities, connectors and rendezvous points…")
        var draft = try ManifestDraft.make(resortID: resortID, snapshot: inputs, drafted: drafted,
                                           expectedTrailCount: request.expectedTrailCount, expectedLiftCount: request.expectedLiftCount,
                                           canonicalCountsReviewed: request.canonicalCountsReviewed)
        draft.headlineTrailCount = request.headlineTrailCount
        draft.headlineLiftCount = request.headlineLiftCount
        draft.evidenceObservedAt = request.evidenceObservedAt
        draft.evidenceURLs = request.evidenceURLs
        let stored = draft

        if let timezone = request.timezone {
            let known = try await asService { db in
                try await db.query("select exists (select 1 from pg_timezone_names where name = \(timezone))").scalar(Bool.self)
            }
            guard known else {
                throw CLIError("--timezone \(timezone) is not a time zone PostgreSQL knows", fix: "give an IANA name like Europe/Andorra or America/Denver")
            }
        }
        let extent = request.bbox ?? extract.extent
        let center = request.center ?? ((extent.latMin + extent.latMax) / 2, (extent.lonMin + extent.lonMax) / 2)
        guard extent.latMin <= extent.latMax, extent.lonMin <= extent.lonMax,
              (extent.latMin...extent.latMax).contains(center.lat), (extent.lonMin...extent.lonMax).contains(center.lon) else {
            throw CLIError("the resort's centre \(center.lat),\(center.lon) lies outside its box", fix: "give --lat-lon inside --bbox")
        }

        progress("storing the snapshot and draft…")
        return try await asService { db in
            let resortCreated = try await db.query("""
                insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon, timezone)
                values (\(resortID), \(request.name ?? resortID), \(extent.latMin), \(extent.lonMin), \(extent.latMax),
                        \(extent.lonMax), \(center.lat), \(center.lon), \(request.timezone))
                on conflict (id) do nothing
                """).rowsAffected == 1

            let snapshotStored = try await storeSnapshot(db, resortID, extract, request)
            _ = try await db.query("""
                insert into mountain.resort_snapshot_pins (resort_id, snapshot_date, updated_at)
                values (\(resortID), \(extract.snapshotDate)::date, summit.now())
                on conflict (resort_id) do update set snapshot_date = excluded.snapshot_date, updated_at = excluded.updated_at
                """)
            let revision = try await storeDraft(db, stored)
            return IngestOutcome(resortCreated: resortCreated, snapshotStored: snapshotStored, draftRevision: revision, draft: stored)
        }
    }

    /// Ingests, then reports the graphs the stored snapshot and draft build,
    /// as `summit resort ingest` and `fetch` print them.
    func ingestAndReport(_ request: IngestRequest, progress: @Sendable (String) -> Void) async throws -> IngestPrintout {
        let outcome = try await ingest(request, progress: progress)
        let snapshot = try await snapshot(request.resortID, date: request.extract.snapshotDate)
        // The meet samples are review's: ingest reports the graphs only.
        let report = try review(outcome.draft, revision: outcome.draftRevision, snapshot: snapshot, sampling: ReviewStages.Sampling(pairs: 0))
        return IngestPrintout(resortCreated: outcome.resortCreated, snapshotStored: outcome.snapshotStored,
                              draftRevision: outcome.draftRevision, report: report)
    }

    /// Stores the snapshot, or confirms the identical one is already there.
    private func storeSnapshot(_ db: isolated PostgresConnection, _ resortID: String, _ extract: OSMExtract,
                               _ request: IngestRequest) async throws -> Bool {
        let existing = try await Self.storedSnapshots(db, resortID, dates: [extract.snapshotDate]).first
        if let existing {
            guard existing.sha256 == extract.sha256, existing.holdsElevation(of: request) else {
                throw CLIError("\(resortID) already has a different snapshot dated \(extract.snapshotDate) (snapshots never change)",
                               fix: "give this extract its own --snapshot-date, the date of its OSM data")
            }
            return false
        }
        _ = try await db.query("""
            insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count, elevation_policy)
            values (\(resortID), \(extract.snapshotDate)::date, \(extract.format.rawValue), \(extract.sourceName),
                    \(Data(extract.bytes)), \(extract.sha256), \(extract.bytes.count), \(request.elevationPolicy.rawValue))
            """)
        for input in request.elevation {
            _ = try await db.query("""
                insert into mountain.elevation_snapshots (resort_id, snapshot_date, file_name, format, bytes, sha256, byte_count)
                values (\(resortID), \(extract.snapshotDate)::date, \(input.fileName), \(input.format.rawValue),
                        \(Data(input.bytes)), \(input.sha256), \(input.bytes.count))
                """)
        }
        return true
    }

    /// Stores a draft as the resort's next revision; returns its number.
    func storeDraft(_ db: isolated PostgresConnection, _ draft: ManifestDraft) async throws -> Int {
        // Revisions of one resort are numbered one writer at a time.
        _ = try await db.query("select 1 from mountain.resorts where id = \(draft.resortID) for update")
        return try await db.query("""
            insert into mountain.manifest_drafts (resort_id, revision, snapshot_date, document, created_at)
            select \(draft.resortID), coalesce(max(revision), 0) + 1, \(draft.snapshotDate)::date, \(PostgresJSON(draft)), summit.now()
            from mountain.manifest_drafts where resort_id = \(draft.resortID)
            returning revision
            """).scalar(Int.self)
    }
}
