import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// The traversal-time model's parts: conditions over time, the clock, the
/// sun, queues, the penalty combination, learned history.
@Suite("Traversal-time model")
struct ModelTests {
    static func sample(_ time: Double, wind: Double, temperature: Double = -5) -> HourlySample {
        HourlySample(time: time, reading: WeatherReading(temperature: temperature, wind: wind, visibility: 10, cloudCover: 50))
    }

    @Test("forecast samples interpolate across a normal gap; ends and gaps hold an hour, fade for thirty minutes, then use current")
    func holdAndFade() {
        let current = WeatherReading(temperature: 0, wind: 10, visibility: 10, cloudCover: 0)
        let t0 = 1_000_000.0
        // 0 h, 1 h, then a 4 h gap, then 5 h.
        let conditions = ResortConditions(current: current, hourly: [
            Self.sample(t0, wind: 20), Self.sample(t0 + 3600, wind: 40), Self.sample(t0 + 5 * 3600, wind: 60),
        ])
        let timeline = ConditionsTimeline(conditions)
        func wind(_ hours: Double) -> Double { timeline.reading(at: t0 + hours * 3600).wind }
        #expect(abs(wind(0.5) - 30) < 1e-9)                       // interpolated
        #expect(wind(1.5) == 40)                                   // held after the 1 h sample
        #expect(wind(2.0) == 40)                                   // still held at exactly one hour
        #expect(abs(wind(2.25) - 25) < 1e-9)                       // halfway through the fade to current (10)
        #expect(wind(2.5) == 10)                                   // faded: current
        #expect(wind(3.0) == 10)                                   // the middle of the gap
        #expect(abs(wind(3.75) - 35) < 1e-9)                       // fading in towards the 5 h sample
        #expect(wind(4.0) == 60)                                   // held for the hour before it
        #expect(wind(-1.0) == 20 && wind(-1.25) == 15 && wind(-2) == 10) // before the first sample
        #expect(wind(6.0) == 60 && wind(6.5) == 10)                // after the last
    }

    @Test("in a gap shorter than three hours each side holds and the nearer sample wins (the earlier on a tie)")
    func shortGap() {
        let current = WeatherReading(temperature: 0, wind: 0, visibility: 10, cloudCover: 0)
        let t0 = 0.0
        let timeline = ConditionsTimeline(ResortConditions(current: current, hourly: [
            Self.sample(t0, wind: 20), Self.sample(t0 + 2 * 3600, wind: 80),
        ]))
        #expect(timeline.reading(at: 3600).wind == 20)     // exactly the middle: the earlier sample
        #expect(timeline.reading(at: 3601).wind == 80)
    }

    @Test("quantization rounds half away from zero to the model's steps")
    func quantization() {
        let q = QuantizedWeather(WeatherReading(temperature: -3.26, wind: 12.5, visibility: 4.74, cloudCover: 64.6),
                                 freshSnow: 2.5, stationElevation: 1_845)
        #expect(q.temperature == -3.5 && q.wind == 15 && q.visibility == 4.5 && q.cloudCover == 70)
        #expect(q.freshSnow == 3 && q.stationElevation == 1_850)
        #expect(abs(q.temperature(atElevation: 2_850) - (-3.5 - 6.5)) < 1e-9)
    }

    @Test("the resort clock comes from the feed's offset, never the machine's zone")
    func resortClock() {
        let clock = ResortClock(utcOffsetSeconds: -7 * 3600) // e.g. Mammoth in winter
        let instant = 1_768_381_200.0 // 2026-01-14 09:00 UTC
        #expect(clock.hour(at: instant) == 2)
        #expect(!clock.isWeekend(at: instant))
        #expect(clock.isWeekend(at: instant + 3 * 86_400 - 2 * 3600)) // Saturday 00:00 local
        #expect(!clock.isWeekend(at: instant + 3 * 86_400 - 2 * 3600 - 1)) // Friday 23:59:59
        #expect(clock.midnight(atOrBefore: instant) == instant - 2 * 3600)
        let zoned = ResortClock.resolve(feedOffsetSeconds: nil, timeZoneIdentifier: "Europe/Andorra", longitude: 1.5, at: instant)
        #expect(zoned.utcOffsetSeconds == 3600)
        let legacy = ResortClock.resolve(feedOffsetSeconds: nil, timeZoneIdentifier: nil, longitude: -119, at: instant)
        #expect(legacy.utcOffsetSeconds == Int((-119.0 / 15 * 3600).rounded()))
    }

    @Test("the sun is computed from UTC and the resort's longitude alone")
    func sunPosition() {
        // 2026-03-20 (equinox), solar noon at longitude 7° E is about 11:32 UTC.
        let noon = SolarPosition(instant: 1_773_964_800 + 11.53 * 3600, latitude: 46, longitude: 7)
        #expect(abs(noon.altitude - 44) < 1.5)
        #expect(abs(noon.azimuth - 180) < 3)
        let morning = SolarPosition(instant: 1_773_964_800 + 8 * 3600, latitude: 46, longitude: 7)
        #expect(morning.azimuth < 180 && morning.altitude > 0)
        let night = SolarPosition(instant: 1_773_964_800 + 23 * 3600, latitude: 46, longitude: 7)
        #expect(night.altitude < 0)
        #expect(SnowSurface.of(aspectDegrees: 180, aspectVariance: 0, sun: night, cloudCover: 0, temperature: 0) == .hardPack)
        #expect(SnowSurface.of(aspectDegrees: 180, aspectVariance: 0, sun: SolarPosition(altitude: 60, azimuth: 180), cloudCover: 0, temperature: 2) == .slush)
        #expect(SnowSurface.of(aspectDegrees: 0, aspectVariance: 0, sun: SolarPosition(altitude: 60, azimuth: 180), cloudCover: 0, temperature: -5) == .hardPack)
        #expect(SnowSurface.of(aspectDegrees: nil, aspectVariance: 0, sun: SolarPosition(altitude: 60, azimuth: 180), cloudCover: 0, temperature: 2) == .normal)
    }

    @Test("penalties combine worst first with shrinking weight, never below a quarter")
    func penaltyCombination() {
        var factors = PenaltyFactors()
        factors.add(0.9); factors.add(0.5); factors.add(1.2); factors.add(0.8)
        #expect(factors.count == 3)
        #expect(abs(factors.combined() - 0.5 * 0.8.squareRoot() * cbrt(0.9)) < 1e-12)
        var harsh = PenaltyFactors()
        harsh.add(0.1); harsh.add(0.1)
        #expect(harsh.combined() == 0.25)
    }

    @Test("queue demand is continuous through the hour centres and held at the ends")
    func queueDemand() {
        #expect(QueueDemand.multiplier(atLocalHour: 8.5) == 0.5)
        #expect(abs(QueueDemand.multiplier(atLocalHour: 9.0) - 0.65) < 1e-12)
        #expect(QueueDemand.multiplier(atLocalHour: 0.1) == 1.0 && QueueDemand.multiplier(atLocalHour: 23.9) == 1.0)
        #expect(QueueDemand.heuristicBaseSeconds(type: .gondola, capacity: 8, weekend: true) == 180 * 0.7 * 1.4)
        #expect(QueueDemand.heuristicBaseSeconds(type: .tBar, capacity: 4, weekend: false) == 45 * 0.85)
    }

    @Test("learned history: live bucket, then default, then the fullest; only the skier's equipment; only from three observations")
    func learnedHistoryLookup() {
        let history = SpeedHistory([
            EdgeSpeedObservation(edgeID: "t1", conditionsFingerprint: "b", observationCount: 9, speed: 3),
            EdgeSpeedObservation(edgeID: "t1", conditionsFingerprint: "a", observationCount: 9, speed: 4),
            EdgeSpeedObservation(edgeID: "t1", conditionsFingerprint: "default", equipmentKey: "ski-1", observationCount: 5, speed: 5),
            EdgeSpeedObservation(edgeID: "t1", conditionsFingerprint: "live", observationCount: 2, speed: 6),
            EdgeSpeedObservation(edgeID: "t2", conditionsFingerprint: "default", observationCount: 3, speed: 7),
        ])
        #expect(history.observation(edgeID: "t1", liveFingerprint: "live", equipmentKey: "none") == nil) // live bucket untrusted
        #expect(history.observation(edgeID: "t1", liveFingerprint: "other", equipmentKey: "none")?.speed == 4) // fullest, smallest fp
        #expect(history.observation(edgeID: "t1", liveFingerprint: "other", equipmentKey: "ski-1")?.speed == 5)
        #expect(history.observation(edgeID: "t2", liveFingerprint: "x", equipmentKey: "none")?.speed == 7)
        #expect(SpeedHistory(history.rows.reversed()).digest == history.digest)
        var changed = history.rows
        changed[0].speedVariance = 0.5
        #expect(SpeedHistory(changed).digest != history.digest)
    }

    @Test("an Open-Meteo unixtime forecast is read as absolute instants with its offset")
    func openMeteo() throws {
        let json = """
        {"latitude":42.5,"longitude":1.6,"utc_offset_seconds":3600,"elevation":2100,
         "current":{"time":1768381200,"temperature_2m":-4.2,"wind_speed_10m":22,"visibility":8000,"cloud_cover":40},
         "hourly":{"time":[1768374000,1768377600,1768381200,1768384800],
                   "temperature_2m":[-6,-5,-4.2,-3],"wind_speed_10m":[10,15,22,null],
                   "visibility":[9000,8500,8000,7000],"cloud_cover":[20,30,40,50],"snowfall":[0.5,0.7,0,1.0]}}
        """
        let conditions = try ResortConditions(openMeteoJSON: Array(json.utf8))
        #expect(conditions.utcOffsetSeconds == 3600 && conditions.stationElevation == 2100)
        #expect(conditions.current.visibility == 8 && conditions.current.wind == 22)
        #expect(conditions.hourly.count == 3) // the sample without wind is left out
        #expect(abs(conditions.freshSnow24h - 1.2) < 1e-9)
        #expect(throws: ForecastError.self) { try ResortConditions(openMeteoJSON: Array("{\"hourly\":{}}".utf8)) }
    }
}
