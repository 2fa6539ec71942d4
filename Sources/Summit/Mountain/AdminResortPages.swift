import Foundation
import Gateway
import MeetSolver
import MountainGraph
import Postgres

/// The admin site's resort pages, which `summit serve` hands to the gateway: the
/// published resorts, and for each its active graph drawn as `summit demo` draws a
/// meet (`MeetPicture`, without the meet) with the review's figures — the build
/// summary recorded beside the blob, routability and a meet sample on the graph as
/// published. Read as the admin, so only published datasets are seen.
///
/// Published datasets never change, so a drawing is kept per dataset identity: the
/// meet sample is the costly part, and it is measured once.
enum AdminResortPages {
    static func source(database: PostgresConfiguration) -> AdminResortSource {
        let drawings = Drawings()
        // A few connections of their own, kept between pages (moderators are few).
        let pool = PostgresPool(database, maxConnections: 2, applicationName: "summit admin site")
        return AdminResortSource(
            list: { caller in
                try await pool.withConnection { try await list($0, as: caller) }
            },
            draw: { id, caller in
                try await pool.withConnection { connection in
                    guard let resort = try await list(connection, as: caller, only: id).first else { return nil }
                    return try await drawings.picture(of: resort) { try await draw(resort, connection, as: caller) }
                }
            })
    }

    /// The published resorts (`only`: that one).
    static func list(_ connection: PostgresConnection, as caller: Caller, only id: String? = nil) async throws -> [AdminResortSource.Resort] {
        struct Row: Decodable {
            var id: String
            var name: String
            var identity: String
            var snapshot_date: String
            var published_at: String
        }
        let rows = try await connection.acting(as: caller) { db in
            try await db.query("""
                select r.id, r.name, mountain.dataset_version(p.manifest_version, p.graph_version, p.content_sha256) as identity,
                       to_char(p.snapshot_date, 'YYYY-MM-DD') as snapshot_date, to_jsonb(a.activated_at) #>> '{}' as published_at
                from mountain.resort_canonical_active a
                join mountain.resort_canonical_publication p on p.id = a.publication_id
                join mountain.resorts r on r.id = a.resort_id
                where \(id)::text is null or r.id = \(id)
                order by r.name, r.id
                """).decode(Row.self)
        }
        return rows.map {
            AdminResortSource.Resort(id: $0.id, name: $0.name, identity: $0.identity, snapshotDate: $0.snapshot_date, publishedAt: $0.published_at)
        }
    }

    /// The active graph fetched and verified as an app's client does, its build summary, figures and drawing.
    static func draw(_ resort: AdminResortSource.Resort, _ connection: PostgresConnection,
                     as caller: Caller) async throws -> AdminResortSource.Picture? {
        let fetch = try await ResortPipeline(connection: connection).fetch(resort.id, GraphRequest(), as: caller)
        guard let graph = fetch.graph, let identity = fetch.identity else { return nil }
        let recorded = try await connection.acting(as: caller) { db in
            try await db.query("""
                select build_report::text from mountain.resort_graph_blob
                where resort_id = \(resort.id) and manifest_version = \(identity.manifestVersion)
                  and graph_version = \(identity.graphVersion) and sha256 = \(identity.contentSHA256)
                limit 1
                """).first?.decode(String.self, at: 0)
        }
        let summary = recorded.flatMap { try? JSONDecoder().decode(BuildSummary.self, from: Data($0.utf8)) }
        let labels = ["Graph", "Ways", "Components", "Excluded"]
        var facts = (summary?.lines ?? []).enumerated().map { (label: $0.offset < labels.count ? labels[$0.offset] : "Build", value: $0.element) }
        if summary == nil { facts = [("Graph", "\(graph.nodes.count) nodes, \(graph.edges.count) edges (no build summary was recorded)")] }
        let sampling = ReviewStages.Sampling()
        let stage = ReviewStage(stage: "as published", accepted: [], routability: graph.routability(),
                                meetSample: MeetSample.run(on: graph, pairs: sampling.pairs, seed: sampling.seed))
        let picture = MeetPicture(graph: graph, result: nil, names: [:], title: resort.name)
        return AdminResortSource.Picture(resort: resort, facts: facts, figures: stage.lines, svg: picture.svg())
    }

    /// Drawings by dataset identity, each made once however many ask at the same time.
    actor Drawings {
        private var made: [String: Task<AdminResortSource.Picture?, Error>] = [:]

        func picture(of resort: AdminResortSource.Resort,
                     _ make: @escaping @Sendable () async throws -> AdminResortSource.Picture?) async throws -> AdminResortSource.Picture? {
            let key = resort.id + "/" + resort.identity
            if let task = made[key] { return try await task.value }
            // Only the active datasets are drawn: an older one's drawing goes when its resort republishes.
            made = made.filter { !$0.key.hasPrefix(resort.id + "/") }
            let task = Task { try await make() }
            made[key] = task
            do {
                return try await task.value
            } catch {
                made[key] = nil
                throw error
            }
        }
    }
}
