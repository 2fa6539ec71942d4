import Foundation
import JSONDepth

/// Why a forecast document could not be read.
public struct ForecastError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension ResortConditions {
    /// Reads an Open-Meteo forecast requested with `timeformat=unixtime`:
    /// `utc_offset_seconds`, `elevation`, `current` (time, temperature_2m,
    /// wind_speed_10m, visibility in metres, cloud_cover, optional snowfall)
    /// and `hourly` arrays of the same fields. Hourly times are absolute UTC
    /// instants. Fresh snow is the hourly snowfall of the 24 hours up to the
    /// current time (cm), unless `current.snowfall_24h` gives it.
    public init(openMeteoJSON bytes: [UInt8]) throws(ForecastError) {
        let document: OpenMeteoDocument
        do {
            try JSONDepth.check(bytes)
        } catch {
            throw ForecastError(message: "the forecast is not readable: \(error)")
        }
        do {
            document = try JSONDecoder().decode(OpenMeteoDocument.self, from: Data(bytes))
        } catch {
            throw ForecastError(message: "the forecast is not Open-Meteo JSON with unixtime times (\(error)); request it with timeformat=unixtime and the current and hourly fields temperature_2m, wind_speed_10m, visibility, cloud_cover")
        }
        guard let current = document.current else {
            throw ForecastError(message: "the forecast has no \"current\" block; request current=temperature_2m,wind_speed_10m,visibility,cloud_cover")
        }
        guard let temperature = current.temperature_2m, let wind = current.wind_speed_10m else {
            throw ForecastError(message: "the forecast's current block lacks temperature_2m or wind_speed_10m")
        }
        let reading = WeatherReading(temperature: temperature, wind: wind,
                                     visibility: (current.visibility ?? 10_000) / 1000,
                                     cloudCover: current.cloud_cover ?? 0)
        var samples: [HourlySample] = []
        var snow24h = current.snowfall_24h
        if let hourly = document.hourly {
            let count = hourly.time.count
            for series in [hourly.temperature_2m, hourly.wind_speed_10m, hourly.visibility, hourly.cloud_cover, hourly.snowfall] {
                if let series, series.count != count {
                    throw ForecastError(message: "the forecast's hourly arrays differ in length (time has \(count) entries)")
                }
            }
            for index in 0..<count {
                guard let t = hourly.temperature_2m?[index] ?? nil, let w = hourly.wind_speed_10m?[index] ?? nil else { continue }
                let v = (hourly.visibility?[index] ?? nil).map { $0 / 1000 } ?? reading.visibility
                let c = (hourly.cloud_cover?[index] ?? nil) ?? reading.cloudCover
                samples.append(HourlySample(time: hourly.time[index], reading: WeatherReading(temperature: t, wind: w, visibility: v, cloudCover: c)))
            }
            if snow24h == nil, let snowfall = hourly.snowfall, let now = current.time {
                var total = 0.0
                for index in 0..<count where hourly.time[index] <= now && hourly.time[index] > now - 86_400 {
                    total += snowfall[index] ?? 0
                }
                snow24h = total
            }
        }
        self.init(current: reading, freshSnow24h: max(0, snow24h ?? 0), stationElevation: document.elevation,
                  hourly: samples, utcOffsetSeconds: document.utc_offset_seconds, isAuthoritative: true,
                  observedAt: current.time)
    }
}

/// The subset of an Open-Meteo answer the solver reads.
private struct OpenMeteoDocument: Decodable {
    struct Current: Decodable {
        var time: Double?
        var temperature_2m: Double?
        var wind_speed_10m: Double?
        var visibility: Double?
        var cloud_cover: Double?
        var snowfall_24h: Double?
    }
    struct Hourly: Decodable {
        var time: [Double]
        var temperature_2m: [Double?]?
        var wind_speed_10m: [Double?]?
        var visibility: [Double?]?
        var cloud_cover: [Double?]?
        var snowfall: [Double?]?
    }
    var utc_offset_seconds: Int?
    var elevation: Double?
    var current: Current?
    var hourly: Hourly?
}
