import Digest
import Testing
import ZipArchive
@testable import MountainGraph

@Suite("Wire format and ingress validation")
struct WireFormatTests {
    private let graph: MountainGraph
    private let blob: GraphBlob

    init() throws {
        let manifest = CanonicalManifest(
            trails: [CanonicalTrail(name: "Main Street", osmWayIDs: [200])],
            lifts: [CanonicalLift(name: "Summit Express", rideTimeS: 300, osmWayIDs: [100])],
            rendezvousPoints: [CanonicalRendezvousPoint(anchorOSMNodeID: 1, kind: .lodge, displayName: "Base Lodge", confidence: 1, quality: 0.9)])
        graph = try OSMFixture.smallMountain().build(manifest: manifest).graph
        blob = try graph.encodeBlob()
    }

    private var expected: ExpectedDataset {
        ExpectedDataset(resortID: "fixture", manifestVersion: 1, snapshotDate: "2025-01-01",
                        contentSHA256: blob.contentSHA256, blobSHA256: blob.blobSHA256)
    }

    private var json: String { String(decoding: graph.canonicalJSON(), as: UTF8.self) }

    /// Compresses edited JSON and returns it with an expectation that matches
    /// its hashes, so only the edit itself can be refused.
    private func reencoded(_ text: String) throws -> ([UInt8], ExpectedDataset) {
        let bytes = Array(text.utf8)
        let compressed = try RawDeflate.compress(bytes)
        var expectation = expected
        expectation.contentSHA256 = SHA256.hex(bytes)
        expectation.blobSHA256 = SHA256.hex(compressed)
        return (compressed, expectation)
    }

    private func refusal(_ compressed: [UInt8], _ expectation: ExpectedDataset,
                         limits: IngressLimits = IngressLimits()) -> IngressError? {
        do {
            _ = try MountainGraph.decodeBlob(compressed, expecting: expectation, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("a blob round-trips to the same graph; its SHA covers the canonical JSON")
    func roundTrip() throws {
        let decoded = try MountainGraph.decodeBlob(blob.compressed, expecting: expected)
        #expect(decoded == graph)
        #expect(blob.contentSHA256 == SHA256.hex(graph.canonicalJSON()))
        #expect(blob.blobSHA256 == SHA256.hex(blob.compressed))
        #expect(blob.datasetVersion == "m1-v15-" + blob.contentSHA256)
        #expect(blob.fingerprint == graph.fingerprint)
        // Raw deflate: no zlib (0x78) or gzip (0x1f 0x8b) header.
        #expect(blob.compressed.first != 0x78 && blob.compressed.prefix(2) != [0x1f, 0x8b])
        #expect(try RawDeflate.decompress(blob.compressed, limit: 1 << 24) == graph.canonicalJSON())
    }

    @Test("the document has the v15 shape")
    func shape() throws {
        let document = try JSONValue.parse(graph.canonicalJSON())
        guard case .object(let members) = document else { Issue.record("not an object"); return }
        #expect(members.map(\.0) == ["edges", "fingerprint", "graphVersion", "identities", "manifestVersion",
                                     "nodes", "rendezvousPoints", "resortID", "snapshotDate"])
        #expect(document["graphVersion"] == .string("v15"))
        #expect(document["nodes"]?["n1"]?["kind"] == .string("liftBase"))
        #expect(json.contains(#""geometryPairs":[["#))
        #expect(json.contains(#""waitTimeMinutes":null"#))
    }

    @Test("transport and content hashes are checked")
    func hashes() throws {
        var wrongBlob = expected
        wrongBlob.blobSHA256 = String(repeating: "0", count: 64)
        #expect(refusal(blob.compressed, wrongBlob) == .blobSHAMismatch(expected: wrongBlob.blobSHA256!, actual: blob.blobSHA256))
        var wrongContent = expected
        wrongContent.contentSHA256 = String(repeating: "a", count: 64)
        #expect(refusal(blob.compressed, wrongContent) == .contentSHAMismatch(expected: wrongContent.contentSHA256, actual: blob.contentSHA256))
        var malformed = expected
        malformed.contentSHA256 = "ABC"
        #expect(refusal(blob.compressed, malformed) == .malformedExpectedSHA("ABC"))
    }

    @Test("size limits apply before and while inflating")
    func sizeLimits() {
        #expect(refusal(blob.compressed, expected, limits: IngressLimits(maxCompressedBytes: 100))
                == .compressedTooLarge(size: blob.compressed.count, limit: 100))
        #expect(refusal(blob.compressed, expected, limits: IngressLimits(maxDecodedBytes: 1000))
                == .inflate(.tooLarge(limit: 1000)))
        #expect(refusal(Array(blob.compressed.prefix(50)), ExpectedDataset(
            resortID: "fixture", manifestVersion: 1, snapshotDate: "2025-01-01", contentSHA256: blob.contentSHA256)) != nil)
    }

    @Test("the requested identity must match")
    func requestedIdentity() {
        var other = expected
        other.resortID = "elsewhere"
        #expect(refusal(blob.compressed, other) == .identityMismatch(field: "resortID", expected: "elsewhere", actual: "fixture"))
        other = expected
        other.manifestVersion = 2
        #expect(refusal(blob.compressed, other) == .identityMismatch(field: "manifestVersion", expected: "2", actual: "1"))
        other = expected
        other.snapshotDate = "2024-12-31"
        #expect(refusal(blob.compressed, other) == .identityMismatch(field: "snapshotDate", expected: "2024-12-31", actual: "2025-01-01"))
    }

    @Test("edits that keep the hashes consistent are still refused", arguments: [
        ("fingerprint", #""fingerprint":"3:4:"#, #""fingerprint":"9:9:"#),
        ("graph version", #""graphVersion":"v15""#, #""graphVersion":"v14""#),
        ("queue entry", #""queueEntry":true"#, #""queueEntry":false"#),
        ("endpoint geometry", #""lat":46,"#, #""lat":46.5,"#),
        ("negative vertical", #""verticalDrop":500"#, #""verticalDrop":-500"#),
        ("edge id pattern", #""id":"t201""#, #""id":"x201""#),
        ("whitespace", #"{"edges":["#, #"{ "edges":["#),
        ("unknown kind", #""kind":"lift""#, #""kind":"chairlift""#),
        ("missing member", #""segmentIndex":1,"#, ""),
    ])
    func tampering(name: String, find: String, replace: String) throws {
        #expect(json.contains(find), "fixture JSON lacks \(find)")
        let edited = json.replacingFirst(find, with: replace)
        let (compressed, expectation) = try reencoded(edited)
        let error = refusal(compressed, expectation)
        #expect(error != nil, "\(name) edit was accepted")
        switch (name, error) {
        case ("fingerprint", .fingerprintMismatch?), ("graph version", .identityMismatch(field: "graphVersion", _, _)?),
             ("queue entry", .invalidGraph?), ("endpoint geometry", .invalidGraph?), ("negative vertical", .invalidGraph?),
             ("edge id pattern", .fingerprintMismatch?), ("whitespace", .notCanonical?), ("unknown kind", .schema?),
             ("missing member", .schema?):
            break
        default:
            Issue.record("\(name): unexpected \(String(describing: error))")
        }
    }

    @Test("edge and node ids must follow the stable id patterns")
    func idPatterns() {
        for good in ["t1", "l123_s2", "c9_r", "t5_s10_r"] { #expect(GraphValidator.edgeIDWayDigits(good) != nil, "\(good)") }
        for bad in ["x1", "t", "t1_s", "t1_r_s2", "l12a", "t1_s2_r_r", "T1"] { #expect(GraphValidator.edgeIDWayDigits(bad) == nil, "\(bad)") }
        #expect(GraphValidator.isNodeID("n42") && !GraphValidator.isNodeID("n") && !GraphValidator.isNodeID("m42"))
    }

    @Test("validator names the subject of each structural problem")
    func validatorSubjects() {
        var edges = graph.edges
        edges[0].attributes.queueEntry = false
        edges[0].attributes.maxGradient = 75
        let broken = MountainGraph(resortID: "fixture", manifestVersion: 1, snapshotDate: "2025-01-01",
                                   nodes: graph.nodes, edges: edges)
        let problems = GraphValidator.problems(in: broken)
        #expect(problems.contains { $0.subject == "edge l100" && $0.message.contains("maxGradient") })
        #expect(problems.contains { $0.subject.hasPrefix("lift chain lift:Summit Express") })
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

import Foundation
