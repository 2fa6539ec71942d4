import Testing
@testable import MountainGraph

@Suite("Graph fingerprint")
struct FingerprintTests {
    private func edge(_ id: String, _ configure: (inout EdgeAttributes) -> Void) -> GraphEdge {
        var attributes = EdgeAttributes()
        configure(&attributes)
        return GraphEdge(id: id, sourceID: "n1", targetID: "n2", kind: .run, geometry: [], attributes: attributes)
    }

    @Test("vector V1 from the spec")
    func vectorV1() {
        let e = edge("e-blue-1") { a in
            a.isOpen = true
            a.difficulty = .blue
            a.isGroomed = nil
            a.maxGradient = 0
        }
        #expect(MountainGraph.fingerprint(nodeCount: 2, edges: [e]) == "2:1:34e153c11e98c099")
    }

    @Test("vector V2 from the spec, edges in any order")
    func vectorV2() {
        let lift = edge("l100") { a in
            a.isOpen = true
            a.isGroomed = false
            a.waitTimeMinutes = 4.0
            a.rideTimeSeconds = 420.0
            a.maxGradient = 17.25
            a.liftCapacity = 4
        }
        let run = edge("t200") { a in
            a.isOpen = false
            a.difficulty = .doubleBlack
            a.hasMoguls = true
            a.isGladed = true
            a.isGroomed = false
            a.maxGradient = 38.126
        }
        #expect(MountainGraph.fingerprint(nodeCount: 3, edges: [run, lift]) == "3:2:76e8f7aa689e3715")
    }

    @Test("hex is zero-padded to 16 digits")
    func zeroPadding() {
        #expect(MountainGraph.fingerprint(nodeCount: 0, edges: []) == "0:0:0000000000000000")
    }
}
