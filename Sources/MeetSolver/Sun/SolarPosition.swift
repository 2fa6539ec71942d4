import CivilCalendar
import Foundation

/// Where the sun stands for an instant and a place, from UTC and the
/// resort's own coordinates only: a trip preview and an on-mountain solve for
/// the same instant agree wherever they run.
///
/// Kept as the sine of the altitude and the cosine and sine of the azimuth,
/// which is all exposure needs: per edge, the cosine of the angle between
/// sun and slope is then a dot product, with no trigonometry per edge.
struct SolarPosition: Sendable, Equatable {
    var sinAltitude: Double
    var cosAzimuth: Double
    var sinAzimuth: Double

    /// Degrees above the horizon.
    var altitude: Double { asin(max(-1, min(1, sinAltitude))) * 180 / .pi }
    /// Degrees clockwise from north, 0 ..< 360.
    var azimuth: Double {
        let degrees = atan2(sinAzimuth, cosAzimuth) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    init(altitude: Double, azimuth: Double) {
        sinAltitude = sin(altitude * .pi / 180)
        cosAzimuth = cos(azimuth * .pi / 180)
        sinAzimuth = sin(azimuth * .pi / 180)
    }

    init(instant: Double, latitude: Double, longitude: Double) {
        self.init(instant: instant, day: SolarDay(instant: instant, longitude: longitude),
                  sinLatitude: sin(latitude * .pi / 180), cosLatitude: cos(latitude * .pi / 180), longitude: longitude)
    }

    /// With the day's constants and the observer's latitude worked out already.
    init(instant: Double, day: SolarDay, sinLatitude: Double, cosLatitude: Double, longitude: Double) {
        self.init(instant: instant, site: SolarDayAtSite(day, sinLatitude: sinLatitude, cosLatitude: cosLatitude, longitude: longitude),
                  sinLatitude: sinLatitude, cosLatitude: cosLatitude)
    }

    /// With the day's constants already combined with the observer's.
    init(instant: Double, site: SolarDayAtSite, sinLatitude: Double, cosLatitude: Double) {
        let day = site.day
        let utcSeconds = instant - Self.wholeDays(instant) * 86_400
        var hourAngle = ((utcSeconds / 3600) - site.noon) * 15
        // Within a few turns of zero: bring it into (−180, 180] without a division.
        while hourAngle <= -180 { hourAngle += 360 }
        while hourAngle > 180 { hourAngle -= 360 }
        let sinAltitude = max(-1, min(1, site.sinTerm + site.cosTerm * cos(hourAngle * .pi / 180)))
        let cosAltitude = (1 - sinAltitude * sinAltitude).squareRoot()
        let cosAzimuth = cosAltitude > 0 ? max(-1, min(1, (day.sinDeclination - sinLatitude * sinAltitude) / (cosLatitude * cosAltitude))) : 1
        // Morning (hour angle ≤ 0): east of south, azimuth 0…180; afternoon: 180…360.
        let sinAzimuth = (1 - cosAzimuth * cosAzimuth).squareRoot() * (hourAngle > 0 ? -1 : 1)
        self.sinAltitude = sinAltitude
        self.cosAzimuth = cosAzimuth
        self.sinAzimuth = sinAzimuth
    }

    /// `(instant / 86 400)` rounded down. From 0 on, truncation (one
    /// conversion each way, exact below 2⁵³) is the same as rounding down
    /// and needs no call into libm; before 1970 it rounds down the usual way.
    @inline(__always)
    static func wholeDays(_ instant: Double) -> Double {
        let days = instant / 86_400
        return days >= 0 && days < 0x1p62 ? Double(Int64(days)) : days.rounded(.down)
    }
}

/// The sun's constants for one local mean solar day (UTC shifted by the
/// longitude): declination and the equation of time.
struct SolarDay: Sendable, Equatable {
    let days: Int
    let sinDeclination: Double
    let cosDeclination: Double
    /// Minutes.
    let equationOfTime: Double

    init(instant: Double, longitude: Double) {
        self.init(days: CivilDate.days(of: instant + longitude / 15 * 3600))
    }

    init(days: Int) {
        self.days = days
        let n = Double(CivilDate(daysSinceEpoch: days).dayOfYear)
        let degrees = Double.pi / 180
        let declination = 23.45 * sin(360.0 / 365.0 * (284 + n) * degrees)
        let b = 360.0 / 365.0 * (n - 81) * degrees
        equationOfTime = 9.87 * sin(2 * b) - 7.53 * cos(b) - 1.5 * sin(b)
        sinDeclination = sin(declination * degrees)
        cosDeclination = cos(declination * degrees)
    }
}
