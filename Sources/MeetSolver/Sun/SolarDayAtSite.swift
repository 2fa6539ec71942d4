/// One solar day's constants combined with the observer's: the UTC hour of
/// solar noon there and the declination terms of the altitude formula.
/// Worked out once per day instead of at every instant the search asks for
/// the sun; each is the very expression `SolarPosition` would evaluate, so
/// the positions are the same to the bit.
struct SolarDayAtSite: Sendable {
    let day: SolarDay
    /// UTC hours.
    let noon: Double
    /// `sin(latitude)·sin(declination)` and `cos(latitude)·cos(declination)`.
    let sinTerm: Double
    let cosTerm: Double

    init(_ day: SolarDay, sinLatitude: Double, cosLatitude: Double, longitude: Double) {
        self.day = day
        noon = 12 - day.equationOfTime / 60 - longitude / 15
        sinTerm = sinLatitude * day.sinDeclination
        cosTerm = cosLatitude * day.cosDeclination
    }
}
