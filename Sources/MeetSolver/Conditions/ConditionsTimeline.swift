/// `ResortConditions` as functions of time: each variable under the
/// hold-and-fade rule, and the lift-ride wind factor as an exact
/// piecewise-linear curve (the ride uses wind unrounded, so ride time
/// changes continuously).
final class ConditionsTimeline: Sendable {
    let conditions: ResortConditions
    let temperature: PiecewiseLinear
    let wind: PiecewiseLinear
    let visibility: PiecewiseLinear
    let cloudCover: PiecewiseLinear
    /// `WindRideFactor.factor(wind(t))`.
    let rideFactor: PiecewiseLinear
    /// Without a forecast the weather never changes: worked out once.
    private let constant: QuantizedWeather?

    init(_ conditions: ResortConditions) {
        self.conditions = conditions
        func series(_ value: (WeatherReading) -> Double) -> PiecewiseLinear {
            HoldFadeSeries.build(samples: conditions.hourly.map { ($0.time, value($0.reading)) },
                                 current: value(conditions.current))
        }
        temperature = series(\.temperature)
        wind = series(\.wind)
        visibility = series(\.visibility)
        cloudCover = series(\.cloudCover)
        rideFactor = wind.mapped(knots: WindRideFactor.knots, WindRideFactor.factor)
        constant = conditions.hourly.isEmpty
            ? QuantizedWeather(conditions.current, freshSnow: conditions.freshSnow24h, stationElevation: conditions.stationElevation)
            : nil
    }

    /// The unrounded weather at an absolute instant (Unix seconds).
    func reading(at instant: Double) -> WeatherReading {
        WeatherReading(temperature: temperature.value(at: instant), wind: wind.value(at: instant),
                       visibility: visibility.value(at: instant), cloudCover: cloudCover.value(at: instant))
    }

    /// The solver's weather at an instant, or the current snapshot when there is no clock.
    func quantized(at instant: Double?) -> QuantizedWeather {
        if let constant { return constant }
        return QuantizedWeather(instant.map(reading(at:)) ?? conditions.current,
                         freshSnow: conditions.freshSnow24h, stationElevation: conditions.stationElevation)
    }

    /// A digest of every hourly sample, for the context signature.
    var hourlyDigestSource: String {
        conditions.hourly.map { s in
            "\(s.time):\(s.reading.temperature):\(s.reading.wind):\(s.reading.visibility):\(s.reading.cloudCover)"
        }.joined(separator: ";")
    }
}
