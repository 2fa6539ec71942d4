import Foundation
import Gateway
import MountainGraph
import Postgres

/// The resort pipeline's edge functions, which `summit serve` registers with the
/// gateway (the gateway cannot import the pipeline):
///
/// - `build-resort-graph`: the operator's build (service role), spec §6.4 — the
///   staged manifest built from its snapshot, stored and answered as `ready`
///   (`cached` when that exact tuple was built before), or `failed` with every
///   failure, or `snapshot_pending`; callers read `status`, not the HTTP code. An
///   app (anon or a session) never builds: its ask is recorded for the operator
///   (`mountain.request_graph_build`), 404 where the resort has no manifest.
/// - `snapshot-resort`: the resort's stored OSM snapshot and its elevation as two
///   keyless URLs valid an hour — Overpass JSON (`elements`: nodes, then ways) and
///   an elevation map `"%.6f,%.6f" → metres` for every way vertex without an `ele`
///   tag that the snapshot's DEM covers — as the app downloads and decodes them.
///   Snapshots are ingested (`summit resort ingest`); nothing is fetched here.
enum ResortFunctions {
    static func all(database: PostgresConfiguration) -> [EdgeFunction] {
        [EdgeFunction(name: "build-resort-graph") { await buildResortGraph($0, database) },
         EdgeFunction(name: "snapshot-resort") { await snapshotResort($0, database) }]
    }

    /// Signed snapshot URLs live this long, as the platform's do.
    static let urlLifetime = 3600

    // MARK: - build-resort-graph

    static func buildResortGraph(_ call: EdgeFunctionCall, _ database: PostgresConfiguration) async -> HTTPResponse {
        guard case .invoke(let caller) = call.kind else {
            return EdgeFunctionCall.error(404, "build-resort-graph hands out no URLs")
        }
        guard let body = call.jsonObject else { return EdgeFunctionCall.error(400, "the body must be a JSON object with resort_id") }
        guard let resort = body["resort_id"] as? String, !resort.isEmpty else {
            return EdgeFunctionCall.error(400, "resort_id is required")
        }
        do {
            return try await PostgresConnection.withConnection(database, applicationName: "summit functions") { db in
                caller.isServiceRole ? try await build(resort, body, on: db) : try await request(resort, on: db)
            }
        } catch let error as CLIError {
            return EdgeFunctionCall.error(404, error.problem + (error.fix.map { ": \($0)" } ?? ""))
        } catch {
            return EdgeFunctionCall.error(500, "the build could not run: the database is not reachable; retry")
        }
    }

    /// An app's ask: recorded, never built.
    private static func request(_ resort: String, on db: PostgresConnection) async throws -> HTTPResponse {
        let text = try await db.query("select mountain.request_graph_build(\(resort))::text", as: .serviceRole).scalar(String.self)
        var answer = JSONText.parse(text) as? [String: Any] ?? [:]
        switch answer["status"] as? String {
        case "no_manifest":
            return EdgeFunctionCall.error(404, "no canonical manifest for resort_id=\(resort)")
        case "published":
            answer["message"] = "the newest manifest is published: fetch it with get-resort-graph"
        default:
            answer["message"] = "builds and publications are the operator's: the request is recorded, and the graph "
                + "follows once it is built and published (summit resort build, summit resort publish)"
        }
        return EdgeFunctionCall.json(200, answer)
    }

    /// The operator's build, answered in §6.4's shape.
    private static func build(_ resort: String, _ body: [String: Any], on db: PostgresConnection) async throws -> HTTPResponse {
        if let asked = body["graph_version"] as? String, asked != MountainGraph.graphVersion {
            return EdgeFunctionCall.json(200, ["status": "failed", "errors": [[
                "code": "graph_version_unsupported",
                "message": "Summit builds graph version \(MountainGraph.graphVersion), not \(asked)"]]])
        }
        let manifest = (body["manifest_version"] as? NSNumber)?.intValue
        let date = body["snapshot_date"] as? String
        // Checked here, so the answer speaks of the request's fields, not the CLI's flags.
        if let date, OSMExtract.isoDate(date) == nil {
            return EdgeFunctionCall.error(400, "snapshot_date \(date) is not a date: write it as YYYY-MM-DD, or leave it out for the resort's pin")
        }
        if body["manifest_version"] != nil, manifest == nil || manifest! < 1 {
            return EdgeFunctionCall.error(400, "manifest_version is a whole number from 1, or left out for the newest staged manifest")
        }
        let pipeline = ResortPipeline(connection: db)
        do {
            let outcome = try await pipeline.build(resort, manifestVersion: manifest, snapshotDate: date, dryRun: false) { _ in }
            let identity = outcome.identity
            return EdgeFunctionCall.json(200, [
                "status": "ready", "resort_id": identity.resortID, "manifest_version": identity.manifestVersion,
                "snapshot_date": identity.snapshotDate, "graph_version": identity.graphVersion, "sha256": identity.contentSHA256,
                "dataset_version": identity.datasetVersion, "fingerprint": identity.fingerprint,
                "nodes": identity.nodeCount, "edges": identity.edgeCount, "cached": outcome.cached])
        } catch let refusal as BuildRefusal {
            return EdgeFunctionCall.json(200, ["status": "failed", "manifest_version": refusal.manifestVersion,
                                               "snapshot_date": refusal.snapshotDate,
                                               "errors": refusal.failures.map { failure -> [String: Any] in
                var error: [String: Any] = ["code": failure.code.rawValue, "message": failure.message]
                if let identity = failure.identity { error["identity"] = identity }
                if !failure.wayIDs.isEmpty { error["way_ids"] = failure.wayIDs }
                return error
            }])
        } catch let error as CLIError where error.problem.hasPrefix("snapshot_pending") || error.problem.contains("has no snapshot dated") {
            return EdgeFunctionCall.json(200, ["status": "snapshot_pending", "resort_id": resort,
                                               "snapshot_date": date ?? NSNull(), "message": error.problem])
        }
    }

    // MARK: - snapshot-resort

    static func snapshotResort(_ call: EdgeFunctionCall, _ database: PostgresConfiguration) async -> HTTPResponse {
        do {
            return try await PostgresConnection.withConnection(database, applicationName: "summit functions") { db in
                switch call.kind {
                case .invoke(let caller):
                    return try await locateSnapshot(call, caller: caller, on: db)
                case .download(let path, _):
                    return try await snapshotArtifact(path, on: db)
                }
            }
        } catch let error as CLIError {
            return EdgeFunctionCall.error(404, error.problem + (error.fix.map { ": \($0)" } ?? ""))
        } catch {
            return EdgeFunctionCall.error(500, "the snapshot could not be read: the database is not reachable; retry")
        }
    }

    /// The snapshot the app asks for: its pinned date when Summit holds that one, else
    /// the resort's pin. Answered `ready` at once: snapshots are stored whole.
    private static func locateSnapshot(_ call: EdgeFunctionCall, caller: RequestCaller, on db: PostgresConnection) async throws -> HTTPResponse {
        guard let body = call.jsonObject, let resort = body["resort_id"] as? String, !resort.isEmpty else {
            return EdgeFunctionCall.error(400, "resort_id is required")
        }
        let pipeline = ResortPipeline(connection: db)
        try await pipeline.requireResort(resort)
        let asked = body["pinned_snapshot_date"] as? String
        if let asked, OSMExtract.isoDate(asked) == nil {
            return EdgeFunctionCall.error(400, "pinned_snapshot_date \(asked) is not a date: write it as YYYY-MM-DD")
        }
        let stored = try await db.query("""
            select to_char(snapshot_date, 'YYYY-MM-DD') from mountain.osm_snapshots where resort_id = \(resort) order by snapshot_date desc
            """, as: .serviceRole).decode(String.self)
        let pinned = try await pipeline.pinnedSnapshotDate(resort)
        guard let date = [asked, pinned, stored.first].compactMap({ $0 }).first(where: stored.contains) else {
            let held = stored.isEmpty ? "none" : stored.joined(separator: ", ")
            return EdgeFunctionCall.error(404, "\(resort) has no stored snapshot\(asked.map { " dated \($0)" } ?? "") (stored: \(held)): "
                                          + "an operator ingests one with summit resort ingest \(resort) --osm FILE --snapshot-date YYYY-MM-DD")
        }
        return EdgeFunctionCall.json(200, [
            "status": "ready", "resort_id": resort, "snapshot_date": date, "cached": true,
            "osm_url": call.signedURL(["osm", resort, date + ".json"], expiresIn: urlLifetime, signer: caller),
            "elevation_url": call.signedURL(["elevation", resort, date + ".json"], expiresIn: urlLifetime, signer: caller)])
    }

    /// `osm/{resort}/{date}.json` or `elevation/{resort}/{date}.json` of a URL `locateSnapshot` signed.
    private static func snapshotArtifact(_ path: [String], on db: PostgresConnection) async throws -> HTTPResponse {
        guard path.count == 3, ["osm", "elevation"].contains(path[0]), path[2].hasSuffix(".json"),
              let date = OSMExtract.isoDate(String(path[2].dropLast(5))) else {
            return EdgeFunctionCall.error(404, "no such snapshot file: snapshot-resort answers osm/{resort}/{date}.json and elevation/{resort}/{date}.json")
        }
        let snapshot = try await ResortPipeline(connection: db).snapshot(path[1], date: date)
        let object = path[0] == "osm" ? overpassJSON(snapshot.osm) : elevationMap(snapshot)
        let bytes = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "private, max-age=3600"],
                            body: Array(bytes))
    }

    /// The snapshot as Overpass JSON: every node (with its tags), then every way.
    static func overpassJSON(_ osm: OSMData) -> [String: Any] {
        var elements: [[String: Any]] = []
        elements.reserveCapacity(osm.nodes.count + osm.ways.count)
        for node in osm.nodes.values.sorted(by: { $0.id < $1.id }) {
            var element: [String: Any] = ["type": "node", "id": node.id, "lat": node.lat, "lon": node.lon]
            if !node.tags.isEmpty { element["tags"] = node.tags }
            elements.append(element)
        }
        for way in osm.ways {
            var element: [String: Any] = ["type": "way", "id": way.id, "nodes": way.nodeIDs]
            if !way.tags.isEmpty { element["tags"] = way.tags }
            elements.append(element)
        }
        return ["version": 0.6, "generator": "Summit snapshot-resort", "elements": elements]
    }

    /// DEM samples for the way vertices the app would look up: those without `ele`.
    static func elevationMap(_ snapshot: SnapshotInputs) -> [String: Any] {
        guard let source = snapshot.elevation else { return [:] }
        var map: [String: Any] = [:]
        for way in snapshot.osm.ways {
            for id in way.nodeIDs {
                guard let node = snapshot.osm.node(id), node.tags["ele"] == nil else { continue }
                let key = String(format: "%.6f,%.6f", node.lat, node.lon)
                guard map[key] == nil, let metres = source.elevation(at: Coordinate(lat: node.lat, lon: node.lon)), metres.isFinite else { continue }
                map[key] = metres
            }
        }
        return map
    }
}
