import Foundation
import Testing
@testable import MountainGraph

@Suite("Review proposals")
struct ReviewProposalTests {
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
        var tight = ConnectorLimits()
        tight.station = 10
        tight.farRunGap = 10
        #expect(ConnectorReview.propose(osm: try deadEndLift.osm(), limits: tight).isEmpty)
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

    private func connectors(_ f: OSMFixture) throws -> [ConnectorProposal] { ConnectorReview.propose(osm: try f.osm()) }

    @Test("a lift top beside another lift's base transfers to it; two bases side by side link both ways")
    func stations() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.node(3, east: 40, north: 1000, ele: 1490)
        f.node(4, east: 40, north: 2000, ele: 2000)
        f.node(5, east: 50, north: 0, ele: 1000)
        f.node(6, east: 50, north: 900, ele: 1450)
        f.lift(100, [1, 2], name: "A")
        f.lift(101, [3, 4], name: "B")
        f.lift(102, [5, 6], name: "C")
        let found = try connectors(f)
        let transfer = try #require(found.first { $0.kind == .liftTransfer })
        #expect(transfer.fromOSMNodeID == 2 && transfer.toOSMNodeID == 3 && !transfer.bidirectional)
        let link = try #require(found.first { $0.kind == .stationLink && Set([$0.fromOSMNodeID, $0.toOSMNodeID]) == [1, 5] })
        #expect(link.bidirectional && abs(link.distanceMeters - 50) < 1)
    }

    @Test("a run that stops beside another flows into it, never uphill beyond the climb limit")
    func runEnd() throws {
        func fixture(landing: Double) -> OSMFixture {
            var f = OSMFixture()
            f.node(20, east: 0, north: 0, ele: 1200)
            f.node(21, east: 0, north: -500, ele: 1000)
            f.node(30, east: 60, north: 0, ele: 1250)
            f.node(31, east: 60, north: -500, ele: landing)
            f.node(32, east: 60, north: -1000, ele: 900)
            f.run(300, [20, 21], name: "Short")
            f.run(301, [30, 31, 32], name: "Long")
            return f
        }
        #expect(try connectors(fixture(landing: 990)).map { "\($0.kind.rawValue) \($0.fromOSMNodeID)→\($0.toOSMNodeID)" } == ["runEnd 21→31"])
        #expect(try connectors(fixture(landing: 1030)).filter { $0.kind == .runEnd }.isEmpty)
    }

    @Test("a run that starts beside another is entered from it")
    func runHead() throws {
        var f = OSMFixture()
        f.node(40, east: 0, north: 0, ele: 1000)
        f.node(41, east: 0, north: -400, ele: 800)
        f.node(50, east: 50, north: 200, ele: 1200)
        f.node(51, east: 50, north: 0, ele: 1010)
        f.node(52, east: 50, north: -400, ele: 820)
        f.run(400, [40, 41], name: "Below")
        f.run(401, [50, 51, 52], name: "Above")
        #expect(try connectors(f).map { "\($0.kind.rawValue) \($0.fromOSMNodeID)→\($0.toOSMNodeID)" } == ["runHead 51→40"])
    }

    @Test("two pistes drawn across each other are joined at their vertices nearest the crossing, both ways")
    func crossing() throws {
        var f = OSMFixture()
        f.node(60, east: -300, north: 0, ele: 1000)
        f.node(62, east: 5, north: 0, ele: 1000)
        f.node(61, east: 300, north: 0, ele: 1000)
        f.node(70, east: 0, north: 300, ele: 1000)
        f.node(72, east: 0, north: -5, ele: 1000)
        f.node(71, east: 0, north: -300, ele: 1000)
        f.run(500, [60, 62, 61], name: "East-West")
        f.run(501, [70, 72, 71], name: "North-South")
        let found = try connectors(f)
        #expect(found.map { "\($0.kind.rawValue) \($0.fromOSMNodeID)→\($0.toOSMNodeID)" } == ["crossing 62→72"])
        #expect(found[0].bidirectional && abs(found[0].distanceMeters - 7.07) < 0.1)
    }

    @Test("identity proposals: an unnamed run, the branches of a forked name, the pieces of a split name, a chain the draft left out")
    func claims() throws {
        var f = OSMFixture()
        for (id, east, north) in [(80, 0, 0), (81, 0, -300), (82, 0, -900), (83, 200, -600),
                                  (90, 1000, 0), (91, 1000, -300), (92, 2000, 0), (93, 2000, -300),
                                  (94, 3000, 0), (95, 3000, -300), (96, 3000, -600), (97, 4000, 0), (98, 4000, -300)] {
            f.node(Int64(id), east: Double(east), north: Double(north), ele: 2000 + Double(north))
        }
        f.run(600, [80, 81, 82], name: "Fork")
        f.run(601, [81, 83], name: "Fork")
        f.run(700, [90, 91], name: "Split")
        f.run(701, [92, 93], name: "Split")
        f.run(800, [94, 95], name: "Chain")
        f.run(801, [95, 96], name: "Chain")
        f.run(900, [97, 98])
        let (claims, unclaimable) = ClaimReview.propose(osm: try f.osm())
        #expect(unclaimable.isEmpty)
        #expect(claims.map { "\($0.name) \($0.reason.rawValue) \($0.wayIDs)" } == [
            "Fork branch [600]", "Fork (2) branch [601]", "Split piece [700]", "Split (2) piece [701]",
            "Chain whole [800, 801]", "Unnamed run (way 900) unnamed [900]",
        ])
        let chain = try #require(claims.first { $0.name == "Chain" })
        #expect(chain.topElevation == 2000 && chain.bottomElevation == 1400 && abs(chain.lengthMeters - 600) < 1)
        // Accepted, every way is claimed and open.
        let manifest = CanonicalManifest(trails: claims.compactMap(\.trail))
        let graph = try f.build(manifest: manifest).graph
        #expect(graph.edges.allSatisfy { $0.attributes.isOpen && $0.attributes.identityKey != nil })
    }

    @Test("rendezvous proposals: lift stations, a named mid-station, a junction of three runs, a restaurant")
    func rendezvous() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(7, east: 0, north: 500, ele: 1250, tags: ["aerialway": "station", "name": "Midway"])
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.node(8, east: 300, north: 400, ele: 1150)
        f.node(9, east: 600, north: 500, ele: 1300)
        f.node(10, east: 600, north: 100, ele: 1100)
        f.node(11, east: 900, north: 300, ele: 1200)
        f.node(12, east: 650, north: 120, tags: ["amenity": "restaurant", "name": "Hut"])
        f.lift(100, [1, 7, 2], name: "Gondola")
        f.run(200, [7, 8, 1], name: "Middle")
        f.run(201, [9, 10], name: "West")
        f.run(202, [11, 10], name: "East")
        f.run(203, [10, 8], name: "Link")
        let osm = try f.osm()
        let graph = try f.build().graph
        let found = RendezvousReview.propose(for: graph, osm: osm)
        #expect(found.map { "\($0.source.rawValue) \($0.point.kind.rawValue) \($0.point.anchorOSMNodeID) \($0.point.displayName)" } == [
            "liftStation liftBase 1 Gondola base", "liftStation liftTop 2 Gondola top", "namedStation midStation 7 Midway",
            "amenity restaurant 10 Hut",
        ])
        // The junction at 10 is taken by the restaurant; without it the junction is proposed.
        var plain = osm.nodes
        plain[12] = nil
        let junctions = RendezvousReview.propose(for: graph, osm: OSMData(nodes: plain, ways: osm.ways)).filter { $0.source == .junction }
        #expect(junctions.map(\.point.anchorOSMNodeID) == [10])
        #expect(junctions.first?.point.displayName == "Junction of East, Link, West")
    }

    @Test("everything proposed, accepted together, builds; proposals are the same on every run")
    func acceptAll() throws {
        let osm = try deadEndLift.osm()
        let proposals = try ResortReview.propose(osm: osm)
        #expect(proposals == (try ResortReview.propose(osm: osm)))
        var manifest = CanonicalManifest(trails: proposals.claims.compactMap(\.trail), lifts: proposals.claims.compactMap(\.lift),
                                         rendezvousPoints: proposals.rendezvous.map(\.point))
        manifest.connectors = ConnectorReview.accept(proposals.connectors)
        let routability = try deadEndLift.build(manifest: manifest).graph.routability()
        #expect(routability.liftTopShare == 1 && routability.componentLiftEndShare == 1 && routability.closedRunEdges == 0)
        #expect(routability.rendezvousPointsInLargestComponent == routability.rendezvousPoints && routability.rendezvousPoints == 2)
    }

    @Test("a lift drawn with a bullwheel loop at its top builds as one lift ending where the loop starts")
    func liftLoop() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.node(3, east: 10, north: 1010, ele: 1500)
        f.node(4, east: -10, north: 1010, ele: 1500)
        f.lift(100, [1, 2, 3, 4, 2], name: "Loop Quad")
        let built = try f.build(manifest: CanonicalManifest(lifts: [CanonicalLift(name: "Loop Quad", osmWayIDs: [100])]))
        #expect(built.graph.edges.map { "\($0.id) \($0.sourceID)→\($0.targetID)" } == ["l100 n1→n2"])
        #expect(built.report.trimmedLiftLoops == 1)
        #expect(WayClassification.liftLine([1, 2, 3, 1]) == [1, 2, 3])
        #expect(WayClassification.liftLine([5, 6, 7, 5, 8, 9]) == [5, 8, 9])
    }

    @Test("a way referencing a vertex the snapshot lacks fails the build, naming the way and the vertex")
    func missingVertex() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.lift(100, [1, 2, 3], name: "Broken")
        do {
            _ = try f.build()
            Issue.record("a way with a missing vertex built")
        } catch let error as GraphBuildError {
            #expect(error.failures.map(\.code) == [.missingVertex])
            #expect(error.failures[0].wayIDs == [100] && error.failures[0].message.contains("vertex 3"))
        }
    }
}
