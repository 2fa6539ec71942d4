import Foundation
import MeetSolver
import Postgres

/// The conditions the hourly merges left in `mountain.resort_conditions`, as
/// the solver reads them: the current snapshot, every stored hourly sample and
/// the resort's UTC offset. Read as the caller, so RLS applies.
enum StoredConditions {
    static func load(resortID: String, on db: PostgresConnection) async throws -> ResortConditions? {
        guard let current = try await db.query("""
            select extract(epoch from observed_at)::float8 as observed_at, utc_offset_seconds, station_elevation_m,
                   fresh_snow_24h_cm as fresh_snow, temperature_c, wind_kmh, visibility_km, cloud_cover_pct
            from mountain.resort_conditions where resort_id = \(resortID)
            """).first(as: CurrentRow.self) else { return nil }
        let hourly = try await db.query("""
            select extract(epoch from at)::float8 as at, temperature_c, wind_kmh, visibility_km, cloud_cover_pct
            from mountain.resort_conditions_hourly where resort_id = \(resortID) order by at
            """).decode(HourlyRow.self)
        return ResortConditions(
            current: WeatherReading(temperature: current.temperatureC, wind: current.windKmh,
                                    visibility: current.visibilityKm, cloudCover: current.cloudCoverPct),
            freshSnow24h: current.freshSnow, stationElevation: current.stationElevationM,
            hourly: hourly.map {
                HourlySample(time: $0.at, reading: WeatherReading(temperature: $0.temperatureC, wind: $0.windKmh,
                                                                  visibility: $0.visibilityKm, cloudCover: $0.cloudCoverPct))
            },
            utcOffsetSeconds: current.utcOffsetSeconds, isAuthoritative: true, observedAt: current.observedAt)
    }

    private struct CurrentRow: Decodable {
        var observedAt: Double
        var utcOffsetSeconds: Int?
        var stationElevationM: Double?
        var freshSnow: Double
        var temperatureC: Double
        var windKmh: Double
        var visibilityKm: Double
        var cloudCoverPct: Double
    }

    private struct HourlyRow: Decodable {
        var at: Double
        var temperatureC: Double
        var windKmh: Double
        var visibilityKm: Double
        var cloudCoverPct: Double
    }
}
