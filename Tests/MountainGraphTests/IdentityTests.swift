import Testing
@testable import MountainGraph

/// Canonical identities: claiming, closure, totals, and the atomic failures.
@Suite("Canonical identities")
struct IdentityTests {
    /// Builds and returns the refusal, failing the test if the build succeeds.
    private func refusal(_ fixture: OSMFixture, _ manifest: CanonicalManifest) throws -> GraphBuildError {
        var produced: BuildResult?
        do {
            produced = try fixture.build(manifest: manifest)
        } catch let error as GraphBuildError {
            return error
        }
        Issue.record("build succeeded but should have been refused: \(produced!.report)")
        throw CancellationError()
    }

    private var mountain: OSMFixture { OSMFixture.smallMountain() }

    private var goodManifest: CanonicalManifest {
        CanonicalManifest(
            expectedTrailCount: 1, expectedLiftCount: 1,
            trails: [CanonicalTrail(name: "Main Street", difficulty: .blue, isGroomed: true, lengthM: 1500, vertM: 450, osmWayIDs: [200])],
            lifts: [CanonicalLift(name: "Summit Express", liftType: .gondola, capacity: 2000, rideTimeS: 300, verticalRiseM: 480, osmWayIDs: [100])])
    }

    @Test("claimed edges carry the identity; unclaimed runs are built closed")
    func claimAndClosure() throws {
        let graph = try mountain.build(manifest: goodManifest).graph
        let claimed = try #require(graph.edge("t200_s1"))
        #expect(claimed.attributes.identityKey == "trail:Main Street")
        #expect(claimed.attributes.isOfficiallyValidated && claimed.attributes.isOpen)
        #expect(claimed.attributes.difficulty == .blue && claimed.attributes.isGroomed == true)
        #expect(claimed.attributes.trailGroupId == "gt200")
        let unclaimed = try #require(graph.edge("t201"))
        #expect(!unclaimed.attributes.isOpen && unclaimed.attributes.identityKey == nil)
        let lift = try #require(graph.edge("l100"))
        #expect(lift.attributes.liftType == .gondola && lift.attributes.liftCapacity == 2000)
        #expect(lift.attributes.isGroomed == false && lift.attributes.trailGroupId == "gl100")
        #expect(graph.identities.map(\.key) == ["lift:Summit Express", "trail:Main Street"])
        #expect(graph.identities[1].chains == [["t200_s1", "t200_s2"]])
    }

    @Test("without trail rows nothing is closed")
    func noTrailRowsNoClosure() throws {
        let graph = try mountain.build(manifest: CanonicalManifest()).graph
        #expect(graph.edges.allSatisfy { $0.attributes.isOpen })
    }

    @Test("official totals are allocated once over the directed chain, not per split edge")
    func totalsOncePerChain() throws {
        let graph = try mountain.build(manifest: goodManifest).graph
        let pieces = ["t200_s1", "t200_s2"].compactMap { graph.edge($0) }
        let length = pieces.map(\.attributes.lengthMeters).reduce(0, +)
        let vertical = pieces.map(\.attributes.verticalDrop).reduce(0, +)
        #expect(abs(length - 1500) < 0.002)
        #expect(abs(vertical - 450) < 0.002)
        #expect(pieces.allSatisfy { $0.attributes.lengthMeters < 1500 })
        #expect(pieces.map(\.attributes.chainIndex) == [0, 1])
        let lift = try #require(graph.edge("l100"))
        #expect(lift.attributes.rideTimeSeconds == 300 && lift.attributes.verticalDrop == 480)
    }

    @Test("a two-way lift gets its totals once per direction")
    func totalsPerDirection() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 500, ele: 1250)
        f.node(3, east: 0, north: 1000, ele: 1500)
        f.node(4, east: 200, north: 500, ele: 1200)
        f.lift(100, [1, 2, 3], type: "gondola", name: "Valley Gondola", extra: ["oneway": "no"])
        f.run(200, [2, 4])
        let manifest = CanonicalManifest(lifts: [CanonicalLift(name: "Valley Gondola", rideTimeS: 600, osmWayIDs: [100])])
        let graph = try f.build(manifest: manifest).graph
        let identity = try #require(graph.identities.first)
        #expect(identity.chains.count == 2)
        for chain in identity.chains {
            let ride = chain.compactMap { graph.edge($0)?.attributes.rideTimeSeconds }.reduce(0, +)
            #expect(abs(ride - 600) < 0.002)
            #expect(chain.compactMap { graph.edge($0) }.filter(\.attributes.queueEntry).map(\.attributes.chainIndex) == [0])
        }
    }

    @Test("a reviewed source-less row claims by exact name; an unreviewed one is missing")
    func nameFallback() throws {
        let reviewed = CanonicalManifest(trails: [CanonicalTrail(name: " Side Trail ", nameFallbackReviewed: true)])
        let graph = try mountain.build(manifest: reviewed).graph
        #expect(graph.edge("t201")?.attributes.identityKey == "trail:Side Trail")

        let unreviewed = CanonicalManifest(trails: [CanonicalTrail(name: "Side Trail")])
        let error = try refusal(mountain, unreviewed)
        #expect(error.failures.map(\.code) == [.missingIdentity])
        #expect(error.failures[0].identity == "trail:Side Trail")

        let wrongCase = CanonicalManifest(trails: [CanonicalTrail(name: "side trail", nameFallbackReviewed: true)])
        #expect(try refusal(mountain, wrongCase).failures.map(\.identity) == ["trail:side trail"])
    }

    @Test("osm_way_ids are authoritative over the name")
    func wayIDsWin() throws {
        // Named "Side Trail" but claims way 200 (OSM name Main Street): the ids decide.
        let manifest = CanonicalManifest(trails: [CanonicalTrail(name: "Side Trail", osmWayIDs: [200])])
        let graph = try mountain.build(manifest: manifest).graph
        #expect(graph.edge("t200_s1")?.attributes.identityKey == "trail:Side Trail")
        #expect(graph.edge("t201")?.attributes.identityKey == nil)
    }

    @Test("missing identity: an unknown or excluded way id", arguments: [
        (Int64(999), "not in the OSM snapshot"),
        (Int64(300), "area=yes"),
    ])
    func missingIdentity(wayID: Int64, reason: String) throws {
        var f = mountain
        f.node(10, east: 500, north: 500, ele: 1200)
        f.node(11, east: 600, north: 500, ele: 1200)
        f.node(12, east: 600, north: 600, ele: 1250)
        f.run(300, [10, 11, 12, 10], extra: ["area": "yes"])
        let manifest = CanonicalManifest(trails: [CanonicalTrail(name: "Ghost", osmWayIDs: [200, wayID])])
        let error = try refusal(f, manifest)
        #expect(error.failures.count == 1)
        #expect(error.failures[0].code == .missingIdentity)
        #expect(error.failures[0].identity == "trail:Ghost")
        #expect(error.failures[0].wayIDs == [wayID])
        #expect(error.failures[0].message.contains(reason))
    }

    @Test("duplicate identity: two rows with one name")
    func duplicateIdentity() throws {
        let manifest = CanonicalManifest(trails: [
            CanonicalTrail(name: "Main Street", osmWayIDs: [200]),
            CanonicalTrail(name: "Main Street\u{0020}", osmWayIDs: [201]),
        ])
        let error = try refusal(mountain, manifest)
        #expect(error.failures.map(\.code) == [.duplicateIdentity])
        #expect(error.failures[0].identity == "trail:Main Street")
    }

    @Test("duplicate names compare after Unicode NFC")
    func duplicateAfterNormalization() throws {
        let manifest = CanonicalManifest(trails: [
            CanonicalTrail(name: "Cr\u{00EA}te", osmWayIDs: [200]),
            CanonicalTrail(name: "Cre\u{0302}te", osmWayIDs: [201]),
        ])
        let error = try refusal(mountain, manifest)
        #expect(error.failures.map(\.code) == [.duplicateIdentity])
        #expect(error.failures[0].identity == "trail:Cr\u{00EA}te")
    }

    @Test("multiply claimed: one way in two rows names both identities")
    func multiplyClaimed() throws {
        let manifest = CanonicalManifest(trails: [
            CanonicalTrail(name: "Main Street", osmWayIDs: [200]),
            CanonicalTrail(name: "Shortcut", osmWayIDs: [201, 200]),
        ])
        let error = try refusal(mountain, manifest)
        #expect(Set(error.failures.map(\.code)) == [.multiplyClaimed])
        #expect(error.identities == ["trail:Main Street", "trail:Shortcut"])
        #expect(error.failures.allSatisfy { $0.wayIDs == [200] })
    }

    @Test("disconnected identity: ways that share no vertex")
    func disconnectedIdentity() throws {
        var f = mountain
        f.node(20, east: 900, north: 900, ele: 1400)
        f.node(21, east: 900, north: 100, ele: 1000)
        f.run(400, [20, 21], name: "Far Away")
        let manifest = CanonicalManifest(trails: [CanonicalTrail(name: "Patchwork", osmWayIDs: [201, 400])])
        let error = try refusal(f, manifest)
        #expect(error.failures.map(\.code) == [.disconnectedIdentity])
        #expect(error.failures[0].identity == "trail:Patchwork")
        #expect(error.failures[0].wayIDs == [201, 400])
    }

    @Test("branched identity: two ways that merge into one node")
    func branchedIdentity() throws {
        // 200 (2→…→1, split at 4) and 201 (2→5→4) both arrive at 4: a fork.
        let manifest = CanonicalManifest(trails: [CanonicalTrail(name: "Fork", osmWayIDs: [200, 201])])
        let error = try refusal(mountain, manifest)
        #expect(error.failures.map(\.code) == [.branchedIdentity])
        #expect(error.failures[0].identity == "trail:Fork")
    }

    @Test("kind mismatch and count mismatch are named")
    func kindAndCountMismatch() throws {
        let manifest = CanonicalManifest(
            expectedTrailCount: 2,
            trails: [CanonicalTrail(name: "Lift As Trail", osmWayIDs: [100])])
        let error = try refusal(mountain, manifest)
        #expect(error.failures.map(\.code) == [.countMismatch, .kindMismatch])
        #expect(error.failures[1].identity == "trail:Lift As Trail")
    }

    @Test("every failure is reported at once, and nothing is produced")
    func allFailuresTogether() throws {
        let manifest = CanonicalManifest(
            trails: [
                CanonicalTrail(name: "Ghost", osmWayIDs: [999]),
                CanonicalTrail(name: "Main Street", osmWayIDs: [200]),
                CanonicalTrail(name: "Thief", osmWayIDs: [200]),
            ],
            rendezvousPoints: [CanonicalRendezvousPoint(anchorOSMNodeID: 12345, kind: .lodge, displayName: "Nowhere Hut", confidence: 1, quality: 1)])
        let error = try refusal(mountain, manifest)
        #expect(error.failures.map(\.code) == [.missingIdentity, .multiplyClaimed, .multiplyClaimed, .rendezvousAnchorUnresolved])
        #expect(error.identities == ["trail:Ghost", "trail:Main Street", "trail:Thief"])
        #expect(error.description.contains("trail:Ghost"))
    }

    @Test("rendezvous anchors become nodes, splitting a way when interior")
    func rendezvousAnchors() throws {
        let manifest = CanonicalManifest(rendezvousPoints: [
            CanonicalRendezvousPoint(anchorOSMNodeID: 3, kind: .restaurant, displayName: "Mid Hut", confidence: 0.9, quality: 0.8),
        ])
        let graph = try mountain.build(manifest: manifest).graph
        #expect(graph.rendezvousPoints.map(\.id) == ["rp3"])
        #expect(graph.node(id: "n3") != nil)
        #expect(graph.edges.map(\.id).contains("t200_s3"))
    }

    @Test("the manifest decodes from the schema's column names")
    func manifestJSON() throws {
        let json = """
        {"expected_trail_count":1,"expected_lift_count":0,
         "trails":[{"name":"Main Street","difficulty":"black","is_groomed":null,"has_moguls":true,
                    "is_gladed":false,"length_m":1500,"vert_m":null,"osm_way_ids":["200"],"name_fallback_reviewed":false}],
         "lifts":[],"rendezvous_points":[{"anchor_osm_node_id":4,"kind":"lodge","display_name":"Hut","confidence":1,"quality":0.5}]}
        """
        let manifest = try JSONDecoder().decode(CanonicalManifest.self, from: Data(json.utf8))
        #expect(manifest.trails[0].osmWayIDs == [200] && manifest.trails[0].difficulty == .black)
        #expect(manifest.rendezvousPoints[0].kind == .lodge)
        let graph = try mountain.build(manifest: manifest).graph
        #expect(graph.edge("t200_s1")?.attributes.hasMoguls == true)
    }
}

import Foundation
