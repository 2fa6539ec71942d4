extension ResortConditions {
    /// The weather a solve sees at an absolute instant (Unix seconds), before
    /// quantization: interpolated between samples at most an hour apart, else
    /// the nearest sample held an hour and faded to the current snapshot over
    /// thirty minutes.
    public func reading(at instant: Double) -> WeatherReading {
        ConditionsTimeline(self).reading(at: instant)
    }
}
