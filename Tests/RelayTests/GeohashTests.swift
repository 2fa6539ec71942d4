import Foundation
import Postgres
import Relay
import SummitTestSupport
import Testing

/// The gateway files a friend's packet under a cell by `Geohash.cell`; the database
/// published it on `private.geohash6`'s cell. The two must agree everywhere, edges included.
@Suite struct GeohashTests {
    @Test func cellsAgreeWithTheDatabaseOnResortsBoundariesAndRandomPoints() async throws {
        var points: [(Double, Double)] = [(39.6403, -106.3742), (-90, -180), (90, 180), (0, 0), (-0.0000001, -0.0000001),
                                          (45.0, 7.03125), (46.0546875, 7.03125)]
        // Exact cell boundaries, and a hair either side of them.
        for step in [0, 1, 16_383, 16_384, 32_767] {
            let lon = -180 + Double(step) * 360 / 32768, lat = -90 + Double(step) * 180 / 32768
            points += [(lat, lon), (lat.nextDown, lon.nextDown), (lat.nextUp, lon.nextUp)]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            points.append((Double.random(in: -90...90, using: &generator), Double.random(in: -180...180, using: &generator)))
        }
        try await withFreshConnection { db in
            for (lat, lon) in points where (-90...90).contains(lat) && (-180...180).contains(lon) {
                let stored = try await db.query("select private.geohash6(\(lat), \(lon))").scalar(String.self)
                #expect(Geohash.cell(latitude: lat, longitude: lon) == stored, "(\(lat), \(lon))")
            }
        }
    }

    @Test func aCellsCentreLiesInTheCellAndNamesAreChecked() {
        for cell in ["9xh3e2", "u4pruy", "000000", "zzzzzz", "dr5ru7"] {
            let centre = try! #require(Geohash.center(of: cell))
            #expect(Geohash.cell(latitude: centre.latitude, longitude: centre.longitude) == cell)
        }
        #expect(Geohash.cell(latitude: 90.5, longitude: 0) == nil)
        for bad in ["9xh3e", "9xh3e2a", "9xh3ea", "9XH3E2", "9xh3i2", ""] {
            #expect(!Geohash.isCell(bad), "\(bad)")
        }
    }
}
