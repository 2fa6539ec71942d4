import Digest
import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// Golden meets on real resorts: the same extract, skiers, starts and
/// instant always give these exact results. A fresh test process has a new
/// hash seed, so a match also shows nothing depends on process state.
@Suite("Golden meets on real resorts")
struct RealResortGoldenTests {
    struct Golden {
        var rendezvousPointID: String
        var etaA: Int64
        var etaB: Int64
        var resultSHA256: String
    }

    static let golden: [String: Golden] = [
        "andorra": Golden(rendezvousPointID: "rp621165067", etaA: 1_918_355, etaB: 1_031_245,
                          resultSHA256: "4097c798f94bda21a3c77f27c35836e8ecf869d908a31c6f84865a9630fcdb5d"),
        "okemo": Golden(rendezvousPointID: "rp2614069463", etaA: 994_413, etaB: 248_395,
                        resultSHA256: "ddeaccfefe3850d791c6d5ffc04e6505d9c586169e94e29d4cf7ea68a39c61a9"),
        "mammoth": Golden(rendezvousPointID: "rp96950151", etaA: 651_966, etaB: 212_882,
                          resultSHA256: "17d9cf329fe24a992363e2db634f7ed8f1e59bfa101b52dd94e39435ea61439b"),
    ]

    static func check(_ resort: RealResorts.Resort) throws {
        guard let url = RealResorts.available(resort, for: "RealResortGoldenTests(\(resort.resortID))") else { return }
        let graph = try RealResorts.graph(resort, url: url)
        let (a, b) = SyntheticMountain.farApartStarts(graph)
        let now = RealResorts.morning(resort)
        let conditions = ResortConditions(current: WeatherReading(temperature: -4, wind: 15, visibility: 12, cloudCover: 30),
                                          freshSnow24h: 3, stationElevation: nil, utcOffsetSeconds: resort.utcOffset)
        let solver = SyntheticMountain.solver(graph, now: now, skiers: [Skier(id: "ann", profile: .preset(.advanced)),
                                                                       Skier(id: "bob", profile: .preset(.expert))], conditions: conditions)
        let outcome = solver.solve(SkierStart(skierID: "ann", origin: .node(a), accuracyMeters: 10), SkierStart(skierID: "bob", origin: .node(b)))
        let result = try #require(outcome.value, "\(resort.resortID): \(outcome)")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let sha = SHA256.hex(try encoder.encode(result))
        let primary = result.primary
        print("\(resort.resortID): \(graph.nodes.count) nodes, \(graph.edges.count) edges, \(graph.rendezvousPoints.count) stops; "
              + "meet at \(primary.rendezvousPointID) (\(primary.displayName)) etaA \(Int64((primary.routeA.eta * 1000).rounded())) ms "
              + "etaB \(Int64((primary.routeB.eta * 1000).rounded())) ms, \(result.alternates.count) alternates, sha \(sha)")
        // Whatever the golden values, the result must hold together.
        #expect(result.solveAttempt == .live)
        for option in [primary] + result.alternates {
            for route in [option.routeA, option.routeB] {
                let metrics = try #require(solver.metrics(for: route.edgeIDs, skierID: route.skierID, origin: route.origin,
                                                          accuracyMeters: route.skierID == "ann" ? 10 : nil))
                #expect(abs(metrics.mean - route.eta) < 1e-6 && abs(metrics.std - route.etaStd) < 1e-6)
            }
        }
        guard let expected = golden[resort.resortID] else {
            Issue.record("no golden result recorded for \(resort.resortID)")
            return
        }
        #expect(primary.rendezvousPointID == expected.rendezvousPointID)
        #expect(Int64((primary.routeA.eta * 1000).rounded()) == expected.etaA)
        #expect(Int64((primary.routeB.eta * 1000).rounded()) == expected.etaB)
        #expect(sha == expected.resultSHA256)
    }

    @Test("Andorra (Grandvalira, Pal-Arinsal, Arcalís; DEM elevation)") func andorra() throws { try Self.check(RealResorts.andorra) }
    @Test("Okemo, Vermont") func okemo() throws { try Self.check(RealResorts.okemo) }
    @Test("Mammoth, California") func mammoth() throws { try Self.check(RealResorts.mammoth) }
}
