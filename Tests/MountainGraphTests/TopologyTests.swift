import Testing
@testable import MountainGraph

/// The source-topology rules, each on a small hand-written extract.
@Suite("Topology rules")
struct TopologyTests {
    @Test("ways join at shared vertex ids and are split there")
    func sharedVertexSplits() throws {
        let graph = try OSMFixture.smallMountain().build().graph
        // Run 200 is cut at 4 (shared with run 201); its ends are 2 and 1.
        #expect(graph.edges.map(\.id) == ["l100", "t200_s1", "t200_s2", "t201"])
        let first = try #require(graph.edge("t200_s1"))
        let second = try #require(graph.edge("t200_s2"))
        #expect(first.sourceID == "n2" && first.targetID == "n4")
        #expect(second.sourceID == "n4" && second.targetID == "n1")
        #expect(first.geometry.count == 3)   // 2, 3, 4: the interior vertex stays geometry
        #expect(graph.node(id: "n3") == nil)
        #expect(graph.node(id: "n4")?.kind == .junction)
        #expect(graph.node(id: "n1")?.kind == .liftBase)
        #expect(graph.node(id: "n2")?.kind == .liftTop)
    }

    @Test("coincident coordinates with different vertex ids never join")
    func coordinateCoincidenceDoesNotJoin() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.node(3, east: 0, north: 1000, ele: 1500)   // same place as 2, different id
        f.node(4, east: 200, north: 0, ele: 1000)
        f.lift(100, [1, 2])
        f.run(200, [3, 4])
        let result = try f.build()
        #expect(result.graph.nodes.map(\.id).sorted() == ["n1", "n2", "n3", "n4"])
        #expect(result.report.connectedComponents == 2)
    }

    @Test("crossing ways without a shared vertex are not split")
    func crossingDoesNotSplit() throws {
        var f = OSMFixture()
        f.node(1, east: -100, north: 100, ele: 1100)
        f.node(2, east: 100, north: -100, ele: 1000)
        f.node(3, east: 100, north: 100, ele: 1100)
        f.node(4, east: -100, north: -100, ele: 1000)
        f.run(200, [1, 2])
        f.run(201, [3, 4])
        let graph = try f.build().graph
        #expect(graph.edges.map(\.id) == ["t200", "t201"])
    }

    @Test("a piste:type=connection way joins and runs both ways unless oneway")
    func connectionJoins() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 500, ele: 1200)
        f.node(3, east: 100, north: 0, ele: 1000)
        f.node(4, east: 100, north: 500, ele: 1200)
        f.node(5, east: 300, north: 0, ele: 1000)
        f.run(200, [2, 1])
        f.run(201, [4, 3])
        f.way(300, [1, 3], ["piste:type": "connection"])
        f.way(301, [3, 5], ["piste:type": "connection", "oneway": "yes"])
        let graph = try f.build().graph
        #expect(graph.edges.map(\.id) == ["c300", "c300_r", "c301", "t200", "t201"])
        let back = try #require(graph.edge("c300_r"))
        #expect(back.sourceID == "n3" && back.targetID == "n1" && back.attributes.direction == .reverse)
        #expect(back.geometry == graph.edge("c300")!.geometry.reversed())
        #expect(graph.edge("c300")?.kind == .traverse)
        #expect(graph.edge("c300")?.attributes.trailGroupId == "gc300")
        #expect(graph.edge("c301")?.attributes.trailGroupId == "gc300")
    }

    @Test("lifts are one-way base to top; oneway=no adds the reverse with its own queue")
    func liftDirections() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 500, ele: 1250)
        f.node(3, east: 0, north: 1000, ele: 1500)
        f.node(4, east: 300, north: 0, ele: 1000)
        f.node(5, east: 300, north: 900, ele: 1450)
        f.node(6, east: 0, north: 500, ele: 1200)
        f.lift(100, [3, 2, 1], type: "gondola", extra: ["oneway": "no"])   // drawn top-down
        f.lift(101, [4, 5])
        f.run(200, [2, 6])   // makes 2 a mid-lift split point
        let graph = try f.build().graph
        #expect(graph.edges.filter { $0.kind == .lift }.map(\.id) == ["l100_s1", "l100_s1_r", "l100_s2", "l100_s2_r", "l101"])
        // Primary (up) chain: s2 (1→2) then s1 (2→3); reverse twins go down.
        let up1 = try #require(graph.edge("l100_s2"))
        let up2 = try #require(graph.edge("l100_s1"))
        #expect(up1.sourceID == "n1" && up1.targetID == "n2" && up1.attributes.direction == .reverse)
        #expect(up2.sourceID == "n2" && up2.targetID == "n3")
        #expect(up1.attributes.chainIndex == 0 && up1.attributes.queueEntry)
        #expect(up2.attributes.chainIndex == 1 && !up2.attributes.queueEntry)
        let down1 = try #require(graph.edge("l100_s1_r"))
        let down2 = try #require(graph.edge("l100_s2_r"))
        #expect(down1.sourceID == "n3" && down1.attributes.chainIndex == 0 && down1.attributes.queueEntry)
        #expect(down2.targetID == "n1" && down2.attributes.chainIndex == 1 && !down2.attributes.queueEntry)
        #expect(down1.geometry == up2.geometry.reversed())
        // One queue per direction: exactly two queue entries on the gondola.
        #expect(graph.edges.filter { $0.attributes.sourceWayId == "100" && $0.attributes.queueEntry }.count == 2)
        // A lift without oneway=no has no reverse.
        #expect(graph.edge("l101_r") == nil && graph.edge("l101")?.attributes.queueEntry == true)
        #expect(graph.node(id: "n1")?.kind == .liftBase && graph.node(id: "n3")?.kind == .liftTop)
    }

    @Test("area=yes pistes are footprints, not routes")
    func areasExcluded() throws {
        var f = OSMFixture.smallMountain()
        f.node(10, east: 500, north: 500, ele: 1200)
        f.node(11, east: 600, north: 500, ele: 1200)
        f.node(12, east: 600, north: 600, ele: 1250)
        f.run(300, [10, 11, 12, 10], name: "Bowl", extra: ["area": "yes"])
        let result = try f.build()
        #expect(result.graph.edges.allSatisfy { $0.attributes.sourceWayId != "300" })
        #expect(result.report.excludedAreaWays == 1)
    }

    @Test("access=private|no is excluded unless a ski tag re-opens it")
    func accessRules() throws {
        var f = OSMFixture.smallMountain()
        f.node(10, east: 500, north: 500, ele: 1200)
        f.node(11, east: 600, north: 400, ele: 1100)
        f.node(12, east: 700, north: 300, ele: 1000)
        f.node(13, east: 800, north: 200, ele: 900)
        f.run(300, [10, 11], extra: ["access": "private"])
        f.run(301, [11, 12], extra: ["access": "no", "ski": "yes"])
        f.run(302, [12, 13], extra: ["access": "yes", "ski": "no"])
        let result = try f.build()
        let ways = Set(result.graph.edges.map(\.attributes.sourceWayId))
        #expect(!ways.contains("300"))
        #expect(ways.contains("301"))
        #expect(!ways.contains("302"))
        #expect(result.report.excludedAccessWays == 2)
    }

    @Test("pistes run downhill: drawn uphill they are reversed by elevation")
    func runDirectionFromElevation() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 300, ele: 1100)
        f.node(3, east: 0, north: 600, ele: 1200)
        f.run(200, [1, 2, 3])       // drawn uphill
        f.node(4, east: 100, north: 0, ele: 1000)
        f.node(5, east: 100, north: 300, ele: 1000)
        f.run(201, [4, 5])          // flat: keeps the drawing
        let graph = try f.build().graph
        let reversed = try #require(graph.edge("t200"))
        #expect(reversed.sourceID == "n3" && reversed.targetID == "n1" && reversed.attributes.direction == .reverse)
        #expect(reversed.attributes.verticalDrop == 200)
        let flat = try #require(graph.edge("t201"))
        #expect(flat.sourceID == "n4" && flat.attributes.direction == .forward)
    }

    @Test("missing elevations are interpolated along the way; none at all fails the build")
    func elevationInterpolation() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 300)
        f.node(3, east: 0, north: 600, ele: 1200)
        f.node(4, east: 100, north: 0)
        f.run(200, [3, 2, 1])
        f.run(201, [2, 4])
        let graph = try f.build().graph
        // 2 is a junction with run 201, so it is a node with the interpolated value.
        #expect(graph.node(id: "n2")?.elevation == 1100)
        // 4 has no value of its own: it holds the nearest known value along 201.
        #expect(graph.node(id: "n4")?.elevation == 1100)

        var bare = OSMFixture()
        bare.node(1, east: 0, north: 0)
        bare.node(2, east: 0, north: 300)
        bare.run(200, [1, 2], name: "Nowhere")
        #expect(throws: GraphBuildError.self) { try bare.build() }
        do {
            _ = try bare.build()
        } catch let error as GraphBuildError {
            #expect(error.failures.map(\.code) == [.missingElevation])
            #expect(error.failures[0].wayIDs == [200])
        }
        let flat = try bare.build(options: BuildOptions(missingElevation: .assumeFlat))
        #expect(flat.report.waysWithoutElevation == 1)
        #expect(flat.graph.edge("t200")?.sourceID == "n1")
    }

    @Test("a closed ring is cut at its middle so no edge is a loop")
    func ringIsSplit() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1200)
        f.node(2, east: 100, north: 0, ele: 1150)
        f.node(3, east: 100, north: 100, ele: 1100)
        f.node(4, east: 0, north: 100, ele: 1150)
        f.run(200, [1, 2, 3, 4, 1])
        let graph = try f.build().graph
        #expect(graph.edges.map(\.id) == ["t200_s1", "t200_s2"])
        #expect(graph.edges.allSatisfy { $0.sourceID != $0.targetID })
    }

    @Test("tags become attributes: difficulty, grooming, glades, lift type, capacity, duration, names")
    func tagAttributes() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.node(3, east: 100, north: 500, ele: 1250)
        f.lift(100, [1, 2], type: "chairlift", name: "Quad", extra: ["aerialway:capacity": "2400", "aerialway:duration": "6:30"])
        f.run(200, [2, 3], name: "Birch Trees", difficulty: "expert", extra: ["piste:name": "Birch Glades"])
        f.run(201, [3, 1], difficulty: "novice", extra: ["piste:grooming": "mogul"])
        let graph = try f.build().graph
        let lift = try #require(graph.edge("l100"))
        #expect(lift.attributes.liftType == .chairLift)
        #expect(lift.attributes.liftCapacity == 2400)
        #expect(lift.attributes.rideTimeSeconds == 390)
        #expect(lift.attributes.trailName == "Quad")
        let glade = try #require(graph.edge("t200"))
        #expect(glade.attributes.difficulty == .doubleBlack)
        #expect(glade.attributes.trailName == "Birch Glades")
        #expect(glade.attributes.isGladed)
        #expect(glade.attributes.isGroomed == false)       // double black without a grooming tag
        let moguls = try #require(graph.edge("t201"))
        #expect(moguls.attributes.difficulty == .green)
        #expect(moguls.attributes.hasMoguls && moguls.attributes.isGroomed == false)
        #expect(moguls.attributes.trailName == nil)
        #expect(moguls.attributes.trailGroupId == "gt201")
    }

    @Test("slope and aspect come from the oriented geometry")
    func slopeAndAspect() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 1000, ele: 1500)
        f.node(2, east: 0, north: 500, ele: 1250)
        f.node(3, east: 0, north: 0, ele: 1100)
        f.run(200, [1, 2, 3])   // straight south, steeper at the top
        let edge = try #require(try f.build().graph.edge("t200"))
        #expect(edge.attributes.aspect == 180)
        #expect(edge.attributes.aspectVariance == 0)
        #expect(abs(edge.attributes.lengthMeters - 1000) < 2)   // fixture grid uses 111.32 km per degree
        #expect(edge.attributes.verticalDrop == 400)
        #expect(abs(edge.attributes.averageGradient - 21.80) < 0.05)    // atan(400/1000)
        #expect(abs(edge.attributes.maxGradient - 26.57) < 0.05)        // atan(250/500)
        #expect(edge.attributes.midpointElevation == 1300)
    }

    @Test("named unclaimed runs sharing a node form one trail group")
    func trailGroups() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 1000, ele: 1500)
        f.node(2, east: 0, north: 500, ele: 1250)
        f.node(3, east: 0, north: 0, ele: 1000)
        f.node(4, east: 300, north: 400, ele: 1200)
        f.run(210, [1, 2], name: "Élan Run", difficulty: "easy")
        f.run(205, [2, 3], name: "elan  run", difficulty: "easy")
        f.run(220, [2, 4], name: "Elan Run", difficulty: "advanced")
        let graph = try f.build().graph
        #expect(graph.edge("t210")?.attributes.trailGroupId == "gt205")
        #expect(graph.edge("t205")?.attributes.trailGroupId == "gt205")
        #expect(graph.edge("t220")?.attributes.trailGroupId == "gt220")
    }
}
