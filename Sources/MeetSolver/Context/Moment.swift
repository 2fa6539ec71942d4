/// The environment at one point of a route, computed once per search label
/// and shared by every edge leaving it.
struct Moment {
    /// Seconds after the solve time.
    var offset: Double
    /// Absolute instant, or nil without a solve time.
    var instant: Double?
    var weather: QuantizedWeather
    var sun: SolarPosition?
}

extension TraversalContext {
    func moment(at offset: Double) -> Moment {
        let environment = self.environment
        guard let solveTime = environment.solveTime else {
            return Moment(offset: offset, instant: nil, weather: environment.weatherAtSolve, sun: nil)
        }
        let instant = solveTime + offset
        return Moment(offset: offset, instant: instant, weather: environment.timeline.quantized(at: instant),
                      sun: SolarPosition(instant: instant, latitude: environment.location.lat, longitude: environment.location.lon))
    }
}
