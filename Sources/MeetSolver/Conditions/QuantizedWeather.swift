/// Weather as the solver uses it: rounded to the steps its penalties and its
/// cache key distinguish, half away from zero.
struct QuantizedWeather: Sendable, Equatable {
    var temperature: Double
    var wind: Double
    var visibility: Double
    var cloudCover: Int
    var freshSnow: Double
    var stationElevation: Double?

    init(_ reading: WeatherReading, freshSnow: Double, stationElevation: Double?) {
        temperature = (reading.temperature / 0.5).rounded() * 0.5
        wind = (reading.wind / 5).rounded() * 5
        visibility = (reading.visibility / 0.5).rounded() * 0.5
        let cloud = Int(reading.cloudCover.rounded())
        cloudCover = ((cloud + 5) / 10) * 10
        self.freshSnow = freshSnow.rounded()
        self.stationElevation = stationElevation.map { ($0 / 10).rounded() * 10 }
    }

    /// Temperature at an elevation: the station's lapsed at 6.5 °C per km.
    func temperature(atElevation elevation: Double) -> Double {
        guard elevation > 0, let station = stationElevation else { return temperature }
        return temperature + (elevation - station) * (-6.5 / 1000)
    }
}
