import Foundation
import Postgres

/// `summit resort list`: the resort catalog — what `--resort` may name — with each
/// resort's box and whether a graph is published for it.
extension ResortCommand {
    struct CatalogRow: Codable, Sendable {
        var id: String
        var name: String
        var lat_min: Double
        var lon_min: Double
        var lat_max: Double
        var lon_max: Double
        var published: Bool
        /// How often the apps asked for a build of a staged manifest not yet published (build-resort-graph).
        var build_requests: Int
    }

    static func catalog(_ connection: PostgresConnection, id: String? = nil) async throws -> [CatalogRow] {
        try await connection.query("""
            select r.id, r.name, r.lat_min, r.lon_min, r.lat_max, r.lon_max,
                   exists (select 1 from mountain.resort_canonical_active a where a.resort_id = r.id) as published,
                   coalesce((select sum(q.request_count)::int from mountain.graph_build_requests q
                             where q.resort_id = r.id and not exists (
                               select 1 from mountain.resort_canonical_publication p
                               where p.resort_id = q.resort_id and p.manifest_version = q.manifest_version)), 0) as build_requests
            from mountain.resorts r
            where \(id)::text is null or r.id = \(id)::text
            order by r.id
            """).decode(CatalogRow.self)
    }

    static let list = Command(
        name: "list",
        summary: "List the resorts in the catalog: their ids (what --resort takes), names, boxes, whether one is published, and the apps' build asks.",
        discussion: "A resort enters the catalog with `summit resort ingest`.",
        options: [json],
        run: { invocation in
            let rows = try await AppSession.with(try invocation.workspace()) { try await catalog($0.connection) }
            if invocation.json {
                try invocation.console.json(rows)
            } else if rows.isEmpty {
                invocation.console.out("no resorts yet: summit resort ingest RESORT --osm FILE --snapshot-date YYYY-MM-DD")
            } else {
                for row in rows {
                    let box = String(format: "%.4f,%.4f – %.4f,%.4f", row.lat_min, row.lon_min, row.lat_max, row.lon_max)
                    let asked = row.build_requests == 0 ? "" : "  the apps asked for a build \(row.build_requests)× (summit resort build \(row.id))"
                    invocation.console.out("\(row.id)  \(row.name)  \(box)\(row.published ? "  published" : "  not published")\(asked)")
                }
            }
            return 0
        })
}
