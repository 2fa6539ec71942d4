import Foundation
import MountainGraph
import Postgres

/// What `summit resort fetch` asks of the database around the download: the
/// resort's catalog box before, and after, whether a stored snapshot already
/// holds what the answer would store.
extension ResortPipeline {
    /// The catalog's resort answering to `name` (its id, name or an alias) and its box.
    func catalogResort(_ name: String) async throws -> (id: String, box: OSMBoundingBox) {
        struct Row: Decodable {
            var id: String
            var latMin: Double
            var lonMin: Double
            var latMax: Double
            var lonMax: Double
        }
        let row = try await asService { db in
            try await db.query("""
                select id, lat_min, lon_min, lat_max, lon_max from mountain.resorts
                where id = coalesce((select id from mountain.resorts where id = \(name)), mountain.resolve_resort_id(\(name)))
                """).first(as: Row.self)
        }
        guard let row else {
            throw CLIError("\"\(name)\" is not in the resort catalog, so there is no box to ask Overpass for",
                           fix: "import the catalog first (summit resort catalog import FILE), or find the resort's id with summit resort catalog list --search \(name)")
        }
        do {
            return (row.id, try OSMBoundingBox(south: row.latMin, west: row.lonMin, north: row.latMax, east: row.lonMax))
        } catch {
            throw CLIError("the catalog box of \(row.id) cannot be asked for (\(error))", fix: "correct it in the catalog file and import it again")
        }
    }

    /// The date of a stored snapshot of the resort — the one of the request's
    /// date, else the pinned one — that holds the same nodes and ways (what a
    /// graph is built from) with the same elevation files and policy; nil when
    /// none does. A snapshot under the request's date with other content is
    /// refused: snapshots never change.
    func storedSnapshot(like request: IngestRequest) async throws -> String? {
        struct Stored: Decodable {
            var snapshotDate: String
            var sha256: String
            var bytes: Data
            var elevationPolicy: String
            var elevation: [String]
        }
        let resortID = request.resortID
        let date = request.extract.snapshotDate
        let candidates = try await asService { db in
            try await db.query("""
                select to_char(s.snapshot_date, 'YYYY-MM-DD') as snapshot_date, s.sha256, s.bytes, s.elevation_policy,
                       array(select e.file_name || ':' || e.sha256 from mountain.elevation_snapshots e
                             where e.resort_id = s.resort_id and e.snapshot_date = s.snapshot_date order by 1) as elevation
                from mountain.osm_snapshots s
                where s.resort_id = \(resortID)
                  and (s.snapshot_date = \(date)::date
                       or s.snapshot_date = (select snapshot_date from mountain.resort_snapshot_pins where resort_id = \(resortID)))
                order by s.snapshot_date = \(date)::date desc
                """).decode(Stored.self)
        }
        let elevation = request.elevation.map { "\($0.fileName):\($0.sha256)" }.sorted()
        for stored in candidates {
            let sameData: Bool
            if stored.sha256 == request.extract.sha256 {
                sameData = true
            } else if let data = try? OSMExtract(bytes: Array(stored.bytes), sourceName: resortID, snapshotDate: stored.snapshotDate).data {
                sameData = data.nodes == request.extract.data.nodes && data.ways == request.extract.data.ways
            } else {
                sameData = false
            }
            if sameData, stored.elevation == elevation, stored.elevationPolicy == request.elevationPolicy.rawValue {
                return stored.snapshotDate
            }
            if stored.snapshotDate == date {
                throw CLIError("\(resortID) already has a snapshot dated \(date) with other \(sameData ? "elevation" : "nodes or ways") "
                               + "(OpenStreetMap changed since, or it was stored with other --dem-dir / --assume-flat); snapshots never change, so nothing was stored",
                               fix: "keep the stored one (summit resort review \(resortID)), or fetch again once Overpass's data is of a later day")
            }
        }
        return nil
    }
}
