import Foundation
import Testing
@testable import MountainGraph

@Suite("Reviewed connectors")
struct ConnectorTests {
    /// A lift whose ends touch no piste: its top is 30 m from run 200's
    /// second vertex and its base 20 m from the run's bottom.
    private var deadEndLift: OSMFixture {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.node(10, east: 30, north: 1100, ele: 1520)
        f.node(11, east: 30, north: 1000, ele: 1495)
        f.node(12, east: 100, north: 500, ele: 1250)
        f.node(13, east: 20, north: 0, ele: 1000)
        f.lift(100, [1, 2], name: "Lonely Chair")
        f.run(200, [10, 11, 12, 13], name: "Long Way Down")
        return f
    }

    @Test("proposals link dead-end lift ends to the nearest piste vertex, with evidence")
    func proposals() throws {
        let proposals = ConnectorReview.propose(osm: try deadEndLift.osm())
        #expect(proposals.map(\.kind) == [.liftEntry, .liftExit])
        let exit = try #require(proposals.first { $0.kind == .liftExit })
        #expect(exit.fromOSMNodeID == 2 && exit.toOSMNodeID == 11 && !exit.bidirectional)
        #expect(abs(exit.distanceMeters - 30) < 1)
        #expect(exit.fromElevation == 1500 && exit.toElevation == 1495)
        #expect(exit.fromWayID == 100 && exit.toWayID == 200)
        let entry = try #require(proposals.first { $0.kind == .liftEntry })
        #expect(entry.fromOSMNodeID == 13 && entry.toOSMNodeID == 1)
        // Nothing within a 10 m bound.
        #expect(ConnectorReview.propose(osm: try deadEndLift.osm(), maxLiftDistance: 10).isEmpty)
    }

    @Test("accepted connectors are built like connection ways and make the lift routable")
    func acceptedConnectors() throws {
        let before = try deadEndLift.build()
        #expect(before.report.routability.liftTopsReachingRun == 0)
        let connectors = ConnectorReview.accept(ConnectorReview.propose(osm: try deadEndLift.osm()))
        let after = try deadEndLift.build(manifest: CanonicalManifest(connectors: connectors))
        let graph = after.graph
        let exitID = "c\(CanonicalConnector.reviewedIDBase + 1)"
        let exit = try #require(graph.edge(exitID))
        #expect(exit.kind == .traverse && exit.sourceID == "n2" && exit.targetID == "n11")
        #expect(graph.edge(exitID + "_r") == nil)
        // The run is split where the connector lands.
        #expect(graph.edges.map(\.id).contains("t200_s1") && graph.edges.map(\.id).contains("t200_s2"))
        #expect(after.report.routability.liftTopsReachingRun == 1)
        #expect(after.report.routability.runEndsReachingLift == 1)
        #expect(after.report.largestStronglyConnectedComponent >= 3)
    }

    @Test("a connector colliding with a way id or naming a missing vertex is refused by name")
    func invalidConnectors() throws {
        let manifest = CanonicalManifest(connectors: [
            CanonicalConnector(connectorID: 200, fromOSMNodeID: 2, toOSMNodeID: 11, bidirectional: true),
            CanonicalConnector(connectorID: CanonicalConnector.reviewedIDBase, fromOSMNodeID: 2, toOSMNodeID: 999, bidirectional: true),
        ])
        do {
            _ = try deadEndLift.build(manifest: manifest)
            Issue.record("build with invalid connectors succeeded")
        } catch let error as GraphBuildError {
            #expect(error.identities == ["connector:200", "connector:\(CanonicalConnector.reviewedIDBase)"])
            #expect(error.failures.map(\.code) == [.manifestUnreadable, .missingIdentity])
        }
    }

    @Test("on a real extract, accepted proposals raise routability", .enabled(if: SharedData.hasOSMFolder, SharedData.missingReason))
    func realExtract() throws {
        guard let folder = SharedData.availableOSMFolder(for: "ConnectorTests.realExtract") else { return }
        let url = folder.appendingPathComponent("andorra-2025-01-19.ski.osm.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("⚠️  SKIPPED ConnectorTests.realExtract: \(url.lastPathComponent) not found")
            return
        }
        let osm = try OSMData(overpassJSON: SharedData.bytes(url))
        let elevation = try RealExtractTests.elevation(in: folder)
        let parameters = BuildParameters(resortID: "andorra", manifestVersion: 2, snapshotDate: "2025-01-19")
        let before = try GraphBuilder.build(osm: osm, parameters: parameters, elevation: elevation).report.routability
        let proposals = ConnectorReview.propose(osm: osm, elevation: elevation)
        #expect(proposals == ConnectorReview.propose(osm: osm, elevation: elevation))
        let manifest = CanonicalManifest(connectors: ConnectorReview.accept(proposals))
        let after = try GraphBuilder.build(osm: osm, manifest: manifest, parameters: parameters, elevation: elevation).report.routability
        print("andorra: \(proposals.count) proposals\n  before: \(before)\n  after:  \(after)")
        #expect(after.liftTopShare > before.liftTopShare + 0.3)
        #expect(after.runEndShare > before.runEndShare)
        #expect(after.largestStronglyConnectedComponent > 10 * before.largestStronglyConnectedComponent)
    }
}
