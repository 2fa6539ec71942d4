import MountainGraph
import Testing

/// The bucket learned speeds are kept under (spec §3.10).
@Suite("Conditions fingerprint")
struct ConditionsFingerprintTests {
    @Test("the conditions fingerprint matches the spec's example; no weather gives default")
    func conditionsFingerprint() {
        let weather = ConditionsFingerprint.Weather(temperature: -3, wind: 18, snow24h: 7, visibility: 12, cloudCover: 60)
        #expect(ConditionsFingerprint.fingerprint(weather: weather, hasMoguls: false, isGroomed: true, isGladed: false)
                == "cloud=50|gladed=0|moguls=0|snow=10|tempC=-5|ungroomed=0|vis=12|wind=10")
        #expect(ConditionsFingerprint.fingerprint(weather: nil, hasMoguls: true, isGroomed: false, isGladed: true) == "default")
    }
}
