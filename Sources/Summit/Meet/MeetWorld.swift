import Foundation
import MeetSolver
import MountainGraph
import Postgres

/// One resort's dataset as a meet command solves on it: the exact canonical
/// identity, the verified graph, its status sidecar, the reviewed lift hours
/// and waits, both skiers' profiles and learned speeds, and the instant.
struct MeetWorld: Sendable {
    let identity: DatasetIdentity
    let dataset: MeetDataset
    let status: MountainStatus?
    let skiers: [Skier]
    /// Unix seconds: the server's clock (`summit.now()`), or `--at`.
    let now: Double
    let conditions: ResortConditions

    func solver(cache: SolutionCache? = .shared) -> MeetSolver {
        MeetSolver(dataset: dataset, status: status, conditions: conditions, skiers: skiers, now: now, cache: cache)
    }

    var graph: MountainGraph { dataset.graph }
}

/// Loads a `MeetWorld` as one user, so row level security decides what they
/// see: published datasets only, their own and their friends' learned speeds.
struct MeetWorldLoader: Sendable {
    let session: AppSession
    let caller: Caller

    /// - Parameters:
    ///   - exact: the full identity a stored meet names; nil for the resort's active dataset.
    ///   - at: the instant to plan at; nil for the server's clock.
    ///   - conditions: a forecast to plan with; nil for the resort's stored conditions
    ///     (`summit weather refresh`), else neutral weather.
    func load(resortID: String, exact: DatasetVersion? = nil, skierIDs: [UUID], at: Double? = nil,
              conditions: ResortConditions? = nil) async throws -> MeetWorld {
        var request = GraphRequest()
        if let exact {
            request.manifestVersion = exact.manifestVersion
            request.graphVersion = exact.graphVersion
            request.contentSHA256 = exact.contentSHA256
        }
        let fetch: GraphFetch
        do {
            fetch = try await ResortPipeline(connection: session.connection).fetch(resortID, request, as: caller)
        } catch let refusal as IngressRefusal {
            throw CLIError(refusal.description, fix: "do not meet on this graph; rebuild and republish the resort")
        }
        switch fetch.status {
        case "no_canonical_dataset":
            throw CLIError("\(resortID) has no published canonical dataset, so no live meet can be planned there",
                           fix: "publish one: summit resort ingest/apply/build/publish \(resortID) (or run summit demo)")
        case "not_found":
            throw CLIError("\(resortID) \(exact.map(\.description) ?? "") was never published",
                           fix: "plan a new meet on the resort's published dataset")
        default: break
        }
        guard let graph = fetch.graph, let identity = fetch.identity, let version = DatasetVersion(identity.datasetVersion) else {
            throw CLIError("get_resort_graph answered \(fetch.status) without a graph for \(resortID)", fix: "try again; report it if it persists")
        }
        let ids = skierIDs.map { $0.uuidString.lowercased() }
        let facts = try await session.connection.acting(as: caller) { db in
            let resort = try await db.query("""
                select timezone, center_lat, center_lon from mountain.resorts where id = \(resortID)
                """).first(as: ResortRow.self)
            let lifts = try await db.query("""
                select name, open_hour, close_hour, night_close_hour, weekday_wait_min, weekend_wait_min
                from mountain.canonical_lift where resort_id = \(resortID) and manifest_version = \(identity.manifestVersion)
                order by name
                """).decode(LiftRow.self)
            let status = try await db.query("""
                select extract(epoch from observed_at)::float8 as observed_at, extract(epoch from expires_at)::float8 as expires_at,
                       source, edges::text as edges
                from mountain.resort_status
                where resort_id = \(resortID) and manifest_version = \(identity.manifestVersion)
                  and graph_version = \(identity.graphVersion) and content_sha256 = \(identity.contentSHA256)
                order by observed_at desc limit 1
                """).first(as: StatusRow.self)
            // One's own profile directly; friends' skill levels as the app sees them, in the social snapshot.
            var profiles = try await db.query("""
                select id::text as id, skill_level from social.profiles where id::text = any(\(ids))
                """).decode(ProfileRow.self)
            if caller.userID != nil {
                let snapshot = try JSONValue(parsing: try await db.query("select social.get_social_snapshot()::text").scalar(String.self))
                for friend in snapshot["friends"].array {
                    guard let id = friend["user_id"].uuid?.uuidString.lowercased(), ids.contains(id),
                          !profiles.contains(where: { $0.id == id }) else { continue }
                    profiles.append(ProfileRow(id: id, skillLevel: friend["skill_level"].string))
                }
            }
            let speeds = try await db.query("""
                select profile_id::text as profile_id, edge_id, conditions_fp, equipment_key, observation_count,
                       rolling_speed_ms, rolling_speed_variance_ms2, rolling_peak_ms, rolling_duration_s,
                       extract(epoch from last_observed_at)::float8 as last_observed_at
                from activity.profile_edge_speeds where resort_id = \(resortID) and profile_id::text = any(\(ids))
                """).decode(SpeedRow.self)
            let now = try await db.query("select extract(epoch from summit.now())::float8").scalar(Double.self)
            // The hourly merges' conditions, unless the caller brought its own forecast.
            let stored = conditions == nil ? try await StoredConditions.load(resortID: resortID, on: db) : nil
            return (resort, lifts, status, profiles, speeds, now, stored)
        }
        let (resort, lifts, statusRow, profiles, speeds, serverNow, storedConditions) = facts

        var operations: [String: LiftOperation] = [:]
        for lift in lifts {
            operations["lift:\(lift.name)"] = LiftOperation(openHour: lift.openHour, closeHour: lift.closeHour, nightCloseHour: lift.nightCloseHour,
                                                            weekdayWaitMinutes: lift.weekdayWaitMin, weekendWaitMinutes: lift.weekendWaitMin)
        }
        let location = resort.map { Coordinate(lat: $0.centerLat, lon: $0.centerLon) }
        let dataset = MeetDataset(graph: graph, identity: version, liftOperations: LiftOperations(operations),
                                  location: location, timeZoneIdentifier: resort?.timezone)
        let status = try statusRow.map { row -> MountainStatus in
            var edges: [String: MountainStatus.EdgeStatus] = [:]
            guard case let .object(entries) = try JSONValue(parsing: row.edges) else { return MountainStatus(
                resortID: resortID, datasetVersion: version, observedAt: row.observedAt, expiresAt: row.expiresAt, source: row.source, edges: [:]) }
            for (id, entry) in entries {
                var wait: Double?
                if case let .number(minutes) = entry["wait_minutes"] { wait = minutes }
                edges[id] = MountainStatus.EdgeStatus(isOpen: entry["is_open"].bool ?? false, waitMinutes: wait)
            }
            return MountainStatus(resortID: resortID, datasetVersion: version, observedAt: row.observedAt,
                                  expiresAt: row.expiresAt, source: row.source, edges: edges)
        }
        let skiers = ids.map { id -> Skier in
            let level = profiles.first { $0.id == id }?.skillLevel.flatMap(SkillLevel.init(rawValue:))
            let rows = speeds.filter { $0.profileId == id }.map {
                EdgeSpeedObservation(edgeID: $0.edgeId, conditionsFingerprint: $0.conditionsFp, equipmentKey: $0.equipmentKey,
                                     observationCount: $0.observationCount, speed: $0.rollingSpeedMs,
                                     speedVariance: $0.rollingSpeedVarianceMs2, peakSpeed: $0.rollingPeakMs,
                                     durationSeconds: $0.rollingDurationS, lastObservedAt: $0.lastObservedAt)
            }
            return Skier(id: id, profile: .preset(level), history: SpeedHistory(rows))
        }
        return MeetWorld(identity: identity, dataset: dataset, status: status, skiers: skiers, now: at ?? serverNow,
                         conditions: conditions ?? storedConditions ?? .neutral)
    }

    private struct ResortRow: Decodable {
        var timezone: String?
        var centerLat: Double
        var centerLon: Double
    }

    private struct LiftRow: Decodable {
        var name: String
        var openHour: Double?
        var closeHour: Double?
        var nightCloseHour: Double?
        var weekdayWaitMin: Double?
        var weekendWaitMin: Double?
    }

    private struct StatusRow: Decodable {
        var observedAt: Double
        var expiresAt: Double
        var source: String
        var edges: String
    }

    private struct ProfileRow: Decodable {
        var id: String
        var skillLevel: String?
    }

    private struct SpeedRow: Decodable {
        var profileId: String
        var edgeId: String
        var conditionsFp: String
        var equipmentKey: String
        var observationCount: Int
        var rollingSpeedMs: Double
        var rollingSpeedVarianceMs2: Double
        var rollingPeakMs: Double?
        var rollingDurationS: Double?
        var lastObservedAt: Double
    }
}
