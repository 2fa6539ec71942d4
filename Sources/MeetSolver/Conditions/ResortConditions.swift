/// The weather a solve sees: the current snapshot, the hourly forecast
/// around it, and the resort's UTC offset as the weather feed reported it.
///
/// Between two forecast samples at most an hour apart values interpolate;
/// at the ends of the forecast or across a missing stretch the nearest
/// sample holds for an hour, then fades to the current snapshot over thirty
/// minutes (`ConditionsTimeline`).
public struct ResortConditions: Sendable, Equatable {
    public var current: WeatherReading
    /// Total fresh snow of the last 24 hours, cm; used for the whole solve.
    public var freshSnow24h: Double
    /// The weather station's elevation, metres; edge temperatures are lapsed
    /// from it. Nil when unknown (no lapse).
    public var stationElevation: Double?
    /// Sorted by time, one sample per instant.
    public private(set) var hourly: [HourlySample]
    /// The resort's DST-aware offset from UTC at the time of the forecast.
    public var utcOffsetSeconds: Int?
    /// False for the neutral stand-in used when no weather is known: learned
    /// speeds are then read from their `default` bucket.
    public var isAuthoritative: Bool
    /// When the current snapshot was observed (Unix seconds), when the feed says.
    public var observedAt: Double?

    public init(current: WeatherReading, freshSnow24h: Double = 0, stationElevation: Double? = nil,
                hourly: [HourlySample] = [], utcOffsetSeconds: Int? = nil, isAuthoritative: Bool = true,
                observedAt: Double? = nil) {
        self.current = current
        self.observedAt = observedAt
        self.freshSnow24h = freshSnow24h
        self.stationElevation = stationElevation
        self.utcOffsetSeconds = utcOffsetSeconds
        self.isAuthoritative = isAuthoritative
        var unique: [HourlySample] = []
        for sample in hourly.sorted(by: { $0.time < $1.time }) where sample.time.isFinite {
            if unique.last?.time == sample.time { unique[unique.count - 1] = sample } else { unique.append(sample) }
        }
        self.hourly = unique
    }

    /// Conditions that slow no one: −2 °C (neither slush nor ice), calm, clear,
    /// no fresh snow. Not authoritative.
    public static let neutral = ResortConditions(
        current: WeatherReading(temperature: -2, wind: 0, visibility: 10, cloudCover: 0),
        isAuthoritative: false)
}
