import Foundation

/// Where the sun stands for an instant and a place, from UTC and the
/// resort's own coordinates only: a trip preview and an on-mountain solve for
/// the same instant agree wherever they run.
struct SolarPosition: Sendable, Equatable {
    /// Degrees above the horizon.
    var altitude: Double
    /// Degrees clockwise from north.
    var azimuth: Double

    init(altitude: Double, azimuth: Double) {
        self.altitude = altitude
        self.azimuth = azimuth
    }

    init(instant: Double, latitude: Double, longitude: Double) {
        let degrees = Double.pi / 180
        // The day of year of local mean solar time (UTC shifted by longitude).
        let solarDay = CivilDate(daysSinceEpoch: CivilDate.days(of: instant + longitude / 15 * 3600)).dayOfYear
        let n = Double(solarDay)
        let declination = 23.45 * sin(360.0 / 365.0 * (284 + n) * degrees)
        let b = 360.0 / 365.0 * (n - 81) * degrees
        let equationOfTime = 9.87 * sin(2 * b) - 7.53 * cos(b) - 1.5 * sin(b)
        let utcSeconds = instant - (instant / 86_400).rounded(.down) * 86_400
        let hour = utcSeconds / 3600
        let noon = 12 - equationOfTime / 60 - longitude / 15
        var hourAngle = (hour - noon) * 15
        hourAngle = hourAngle.truncatingRemainder(dividingBy: 360)
        if hourAngle <= -180 { hourAngle += 360 }
        if hourAngle > 180 { hourAngle -= 360 }

        let phi = latitude * degrees, delta = declination * degrees, h = hourAngle * degrees
        let sinAltitude = sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(h)
        let altitude = asin(max(-1, min(1, sinAltitude)))
        let cosAzimuth = (sin(delta) - sin(phi) * sin(altitude)) / (cos(phi) * cos(altitude))
        var azimuth = acos(max(-1, min(1, cosAzimuth))) / degrees
        if hourAngle > 0 { azimuth = 360 - azimuth }
        self.altitude = altitude / degrees
        self.azimuth = azimuth
    }
}
