import Foundation
import MeetSolver
import Postgres

/// One weather refresh: fetch an Open-Meteo forecast, read it with the
/// solver's own parser (`ResortConditions(openMeteoJSON:)`), and merge it into
/// `mountain.resort_conditions` in one transaction. Only once that merge has
/// committed are the resort's active meets re-evaluated, each to its agreed
/// meeting point (seed: "Fresh weather may optimize, never renegotiate").
/// An unreadable or refused forecast writes nothing and re-evaluates nothing.
struct WeatherRefresh: Sendable {
    let connection: PostgresConnection

    struct Report: Sendable, Encodable {
        var resortID: String
        var source: String
        var generation: Int
        var observedAt: String
        var utcOffsetSeconds: Int?
        var mergedSamples: Int
        var storedSamples: Int
        var firstSampleAt: String?
        var lastSampleAt: String?
        var activeMeets: [ActiveMeetReevaluation.Outcome]

        enum CodingKeys: String, CodingKey {
            case resortID = "resort_id"
            case source, generation
            case observedAt = "observed_at"
            case utcOffsetSeconds = "utc_offset_seconds"
            case mergedSamples = "merged_samples"
            case storedSamples = "stored_samples"
            case firstSampleAt = "first_sample_at"
            case lastSampleAt = "last_sample_at"
            case activeMeets = "active_meets"
        }
    }

    func refresh(resortID: String, from source: FeedSource, progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        let merged: Report
        do {
            merged = try await merge(resortID: resortID, source: source, progress: progress)
            await FeedRefreshLog.note(resortID, .weather, error: nil, on: connection)
        } catch {
            await FeedRefreshLog.note(resortID, .weather, error: error, on: connection)
            throw error
        }
        var report = merged
        report.activeMeets = try await ActiveMeetReevaluation(session: AppSession(connection: connection))
            .reevaluate(resortID: resortID, progress: progress)
        return report
    }

    private func merge(resortID: String, source: FeedSource, progress: @Sendable (String) -> Void) async throws -> Report {
        progress("reading the forecast \(source)")
        let bytes = try await source.fetch()
        let conditions: ResortConditions
        do {
            conditions = try ResortConditions(openMeteoJSON: bytes)
        } catch {
            throw FeedError("\(source): \(error.message)", fix: "see `summit weather refresh --help` for the request to make")
        }
        let now = try await connection.query("select extract(epoch from summit.now())::float8", as: .serviceRole).scalar(Double.self)
        let current = CurrentPayload(observedAt: conditions.observedAt ?? now, reading: conditions.current,
                                     freshSnow24hCm: conditions.freshSnow24h, stationElevationM: conditions.stationElevation,
                                     utcOffsetSeconds: conditions.utcOffsetSeconds)
        let hourly = conditions.hourly.map { HourlyPayload(at: $0.time, reading: $0.reading) }
        progress("merging \(hourly.count) hourly samples into \(resortID)'s conditions")
        let answer: AppSession.Answer
        do {
            answer = try await AppSession(connection: connection).call("mountain.merge_resort_conditions", [
                ("p_resort_id", resortID), ("p_source", "open-meteo: \(source)".prefix(500).description),
                ("p_current", PostgresJSON(current)), ("p_hourly", PostgresJSON(hourly)),
            ], as: .serviceRole)
        } catch let refusal as RPCRefusal {
            throw CLIError("the forecast was refused: \(refusal.code)", fix: refusal.hint ?? "check the forecast")
        }
        let json = answer.json
        return Report(resortID: resortID, source: source.description, generation: json["generation"].int ?? 0,
                      observedAt: StatusRefresh.iso(current.observedAt), utcOffsetSeconds: conditions.utcOffsetSeconds,
                      mergedSamples: json["merged_samples"].int ?? 0, storedSamples: json["stored_samples"].int ?? 0,
                      firstSampleAt: json["first_sample_at"].string, lastSampleAt: json["last_sample_at"].string,
                      activeMeets: [])
    }

    /// `p_current` of `mountain.merge_resort_conditions`.
    private struct CurrentPayload: Codable {
        var observedAt: Double
        var temperatureC: Double
        var windKmh: Double
        var visibilityKm: Double
        var cloudCoverPct: Double
        var freshSnow24hCm: Double
        var stationElevationM: Double?
        var utcOffsetSeconds: Int?

        enum CodingKeys: String, CodingKey {
            case observedAt = "observed_at", temperatureC = "temperature_c", windKmh = "wind_kmh"
            case visibilityKm = "visibility_km", cloudCoverPct = "cloud_cover_pct", freshSnow24hCm = "fresh_snow_24h_cm"
            case stationElevationM = "station_elevation_m", utcOffsetSeconds = "utc_offset_seconds"
        }

        init(observedAt: Double, reading: WeatherReading, freshSnow24hCm: Double, stationElevationM: Double?, utcOffsetSeconds: Int?) {
            self.observedAt = observedAt
            temperatureC = reading.temperature
            windKmh = reading.wind
            visibilityKm = reading.visibility
            cloudCoverPct = reading.cloudCover
            self.freshSnow24hCm = freshSnow24hCm
            self.stationElevationM = stationElevationM
            self.utcOffsetSeconds = utcOffsetSeconds
        }
    }

    /// One element of `p_hourly`.
    private struct HourlyPayload: Codable {
        var at: Double
        var temperatureC: Double
        var windKmh: Double
        var visibilityKm: Double
        var cloudCoverPct: Double

        enum CodingKeys: String, CodingKey {
            case at, temperatureC = "temperature_c", windKmh = "wind_kmh", visibilityKm = "visibility_km", cloudCoverPct = "cloud_cover_pct"
        }

        init(at: Double, reading: WeatherReading) {
            self.at = at
            temperatureC = reading.temperature
            windKmh = reading.wind
            visibilityKm = reading.visibility
            cloudCoverPct = reading.cloudCover
        }
    }
}
