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
        let resortID = request.resortID
        let date = request.extract.snapshotDate
        let pinned = try await pinnedSnapshotDate(resortID)
        let candidates = try await asService { db in
            try await Self.storedSnapshots(db, resortID, dates: [date] + (pinned.map { [$0] } ?? []))
        }
        for stored in candidates {
            var sameData = stored.sha256 == request.extract.sha256
            if !sameData { sameData = try await holdsData(of: request.extract, resortID, date: stored.snapshotDate) }
            if sameData, stored.holdsElevation(of: request) {
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

    /// Whether the resort's snapshot of `date` holds the nodes and ways of `extract`, whatever else its bytes say.
    private func holdsData(of extract: OSMExtract, _ resortID: String, date: String) async throws -> Bool {
        let bytes = try await asService { db in
            try await db.query("select bytes from mountain.osm_snapshots where resort_id = \(resortID) and snapshot_date = \(date)::date")
                .scalar(Data.self)
        }
        guard let stored = try? OSMExtract(bytes: Array(bytes), sourceName: resortID, snapshotDate: date).data else { return false }
        return stored.nodes == extract.data.nodes && stored.ways == extract.data.ways
    }
}
