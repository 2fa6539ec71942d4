import MountainGraph

/// How much one skier waiting for the other costs, by stop and weather:
/// waiting in a lodge is cheap; waiting on an exposed lift top in a storm is not.
enum RendezvousAlpha {
    /// Part of the solver cache key: changes whenever the table does.
    static let tableVersion = "alpha-v1"

    static func alpha(_ kind: RendezvousPoint.Kind, harsh: Bool) -> Double {
        switch kind {
        case .lodge, .restaurant: return 0.4
        case .liftBase, .midStation: return harsh ? 0.8 : 0.6
        case .liftTop, .summit, .landmark: return harsh ? 1.0 : 0.6
        }
    }

    /// Wind of 40 km/h or more, −15 °C or colder at the stop, or under 1 km visibility.
    static func isHarsh(_ weather: QuantizedWeather, stopElevation: Double) -> Bool {
        weather.wind >= 40 || weather.temperature(atElevation: stopElevation) <= -15 || weather.visibility < 1
    }
}
