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
    /// - Parameter needsSun: false skips the solar position when no edge
    ///   about to be costed is a run with an aspect (the only ones it changes).
    func moment(at offset: Double, needsSun: Bool = true) -> Moment {
        let environment = self.environment
        guard let solveTime = environment.solveTime else {
            return Moment(offset: offset, instant: nil, weather: environment.weatherAtSolve, sun: nil)
        }
        let instant = solveTime + offset
        return Moment(offset: offset, instant: instant, weather: environment.timeline.quantized(at: instant),
                      sun: needsSun ? environment.sun(at: instant) : nil)
    }
}
