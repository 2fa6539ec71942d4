/// Weather at one instant: temperature °C, wind km/h, visibility km, cloud cover %.
public struct WeatherReading: Sendable, Equatable, Codable {
    public var temperature: Double
    public var wind: Double
    public var visibility: Double
    public var cloudCover: Double

    public init(temperature: Double, wind: Double, visibility: Double, cloudCover: Double) {
        self.temperature = temperature
        self.wind = wind
        self.visibility = visibility
        self.cloudCover = cloudCover
    }
}

/// One hourly forecast value at an absolute instant (Unix seconds, UTC).
public struct HourlySample: Sendable, Equatable, Codable {
    public var time: Double
    public var reading: WeatherReading

    public init(time: Double, reading: WeatherReading) {
        self.time = time
        self.reading = reading
    }
}
