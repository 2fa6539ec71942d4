import Foundation
import MountainGraph
import Postgres

/// The canonical resort pipeline on Summit, the seed's operator runbook on
/// local files. Each stage leaves an immutable artifact the next one reads:
///
///   ingest   OSM extract (+ DEM) → snapshot rows, a snapshot pin and a first
///            manifest draft (identities from named ways, connector proposals)
///   review   the draft revision → a report (counts, routability before and
///            after connectors); edits and accepted proposals → a new revision
///   apply    the newest draft → a staged manifest version (never active)
///   build    a staged manifest + the pinned snapshot → one immutable blob
///   publish  the exact built identity → the resort's active publication
///   get      what clients fetch, verified as a client verifies it
///
/// Every write runs as the service role, in one transaction per stage.
struct ResortPipeline: Sendable {
    let connection: PostgresConnection

    /// Runs `body` as the service role in one transaction.
    func asService<T: Sendable>(_ body: @Sendable (isolated PostgresConnection) async throws -> T) async throws -> T {
        try await connection.acting(as: .serviceRole, body)
    }

    /// Refuses an unknown resort with what to do.
    func requireResort(_ resortID: String) async throws {
        let known = try await asService { db in
            try await db.query("select exists (select 1 from mountain.resorts where id = \(resortID))").scalar(Bool.self)
        }
        guard known else {
            throw CLIError("there is no resort \"\(resortID)\"", fix: "ingest an extract for it first: summit resort ingest \(resortID) --osm FILE")
        }
    }

    // MARK: snapshots

    private struct StoredSnapshot: Decodable {
        var sourceName: String
        var sha256: String
        var bytes: Data
        var elevationPolicy: String
    }

    private struct StoredElevation: Decodable {
        var fileName: String
        var bytes: Data
    }

    /// The stored snapshot of `resortID` dated `snapshotDate`, parsed.
    func snapshot(_ resortID: String, date snapshotDate: String) async throws -> SnapshotInputs {
        let (stored, elevations) = try await asService { db in
            let stored = try await db.query("""
                select source_name, sha256, bytes, elevation_policy from mountain.osm_snapshots
                where resort_id = \(resortID) and snapshot_date = \(snapshotDate)::date
                """).first(as: StoredSnapshot.self)
            let elevations = try await db.query("""
                select file_name, bytes from mountain.elevation_snapshots
                where resort_id = \(resortID) and snapshot_date = \(snapshotDate)::date order by file_name
                """).decode(StoredElevation.self)
            return (stored, elevations)
        }
        guard let stored else {
            throw CLIError("\(resortID) has no snapshot dated \(snapshotDate)",
                           fix: "ingest one: summit resort ingest \(resortID) --osm FILE --snapshot-date \(snapshotDate)")
        }
        let extract = try OSMExtract(bytes: Array(stored.bytes), sourceName: stored.sourceName, snapshotDate: snapshotDate)
        let inputs = try elevations.map { try ElevationInput(fileName: $0.fileName, bytes: Array($0.bytes)) }
        return SnapshotInputs(snapshotDate: snapshotDate, sourceName: stored.sourceName, sha256: stored.sha256,
                              osm: extract.data, elevation: try ElevationInput.layered(inputs),
                              elevationPolicy: ElevationPolicy(rawValue: stored.elevationPolicy) ?? .fail)
    }

    /// What identifies a stored snapshot besides its resort: its date, the
    /// sha256 of its OSM bytes, its elevation files and policy.
    struct StoredSnapshotSummary: Decodable, Sendable {
        var snapshotDate: String
        var sha256: String
        var elevationPolicy: String
        /// `file_name:sha256`, sorted.
        var elevation: [String]

        func holdsElevation(of request: IngestRequest) -> Bool {
            elevationPolicy == request.elevationPolicy.rawValue && elevation == request.elevation.map { "\($0.fileName):\($0.sha256)" }.sorted()
        }
    }

    /// The resort's snapshots of `dates` (`YYYY-MM-DD`), in the order of `dates`.
    static func storedSnapshots(_ db: isolated PostgresConnection, _ resortID: String, dates: [String]) async throws -> [StoredSnapshotSummary] {
        try await db.query("""
            select to_char(s.snapshot_date, 'YYYY-MM-DD') as snapshot_date, s.sha256, s.elevation_policy,
                   array(select e.file_name || ':' || e.sha256 from mountain.elevation_snapshots e
                         where e.resort_id = s.resort_id and e.snapshot_date = s.snapshot_date order by 1) as elevation
            from mountain.osm_snapshots s
            where s.resort_id = \(resortID) and s.snapshot_date = any(\(dates)::date[])
            order by array_position(\(dates), to_char(s.snapshot_date, 'YYYY-MM-DD'))
            """).decode(StoredSnapshotSummary.self)
    }

    /// The snapshot date a build uses by default: the resort's pin, else the catalog's.
    func pinnedSnapshotDate(_ resortID: String) async throws -> String? {
        try await asService { db in
            try await db.query("""
                select to_char(snapshot_date, 'YYYY-MM-DD') from mountain.resort_snapshot_pins
                where resort_id in (\(resortID), '__catalog__')
                order by resort_id = '__catalog__' limit 1
                """).first(as: String.self)
        }
    }
}
