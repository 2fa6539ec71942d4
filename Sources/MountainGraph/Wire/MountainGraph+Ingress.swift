import Digest
import ZipArchive

extension MountainGraph {
    /// Accepts a compressed graph blob only if everything checks: sizes, blob
    /// and content SHA-256, the requested identity, the advertised fingerprint,
    /// node/edge identity, endpoint geometry, numeric ranges, lift queue-entry
    /// semantics and canonical form. Nothing partial is ever returned.
    public static func decodeBlob(
        _ compressed: [UInt8], expecting expected: ExpectedDataset, limits: IngressLimits = IngressLimits()
    ) throws(IngressError) -> MountainGraph {
        guard compressed.count <= limits.maxCompressedBytes else {
            throw .compressedTooLarge(size: compressed.count, limit: limits.maxCompressedBytes)
        }
        for sha in [expected.contentSHA256] + (expected.blobSHA256.map { [$0] } ?? []) where !isSHA256Hex(sha) {
            throw .malformedExpectedSHA(sha)
        }
        if let blobSHA = expected.blobSHA256 {
            let actual = SHA256.hex(compressed)
            guard actual == blobSHA else { throw .blobSHAMismatch(expected: blobSHA, actual: actual) }
        }
        let json: [UInt8]
        do {
            json = try RawDeflate.decompress(compressed, limit: limits.maxDecodedBytes)
        } catch {
            throw .inflate(error)
        }
        let content = SHA256.hex(json)
        guard content == expected.contentSHA256 else {
            throw .contentSHAMismatch(expected: expected.contentSHA256, actual: content)
        }
        let graph = try decodeCanonicalJSON(json)
        if graph.resortID != expected.resortID {
            throw .identityMismatch(field: "resortID", expected: expected.resortID, actual: graph.resortID)
        }
        if graph.manifestVersion != expected.manifestVersion {
            throw .identityMismatch(field: "manifestVersion", expected: String(expected.manifestVersion), actual: String(graph.manifestVersion))
        }
        if graph.snapshotDate != expected.snapshotDate {
            throw .identityMismatch(field: "snapshotDate", expected: expected.snapshotDate, actual: graph.snapshotDate)
        }
        return graph
    }

    /// Decodes and validates uncompressed canonical JSON (all checks except
    /// the SHA and requested identity, which need the caller's expectation).
    public static func decodeCanonicalJSON(_ json: [UInt8]) throws(IngressError) -> MountainGraph {
        let document: JSONValue
        do {
            document = try JSONValue.parse(json)
        } catch {
            throw .notJSON(error)
        }
        let (graph, advertised) = try WireDecoder.graph(from: document)
        if graph.graphVersion != MountainGraph.graphVersion {
            throw .identityMismatch(field: "graphVersion", expected: MountainGraph.graphVersion, actual: graph.graphVersion)
        }
        let computed = graph.fingerprint
        guard advertised == computed else { throw .fingerprintMismatch(advertised: advertised, computed: computed) }
        let problems = GraphValidator.problems(in: graph)
        guard problems.isEmpty else { throw .invalidGraph(problems) }
        // Same content, same bytes: anything else (reordered keys, extra
        // members, other number forms) is refused.
        guard graph.canonicalJSON() == json else { throw .notCanonical }
        return graph
    }

    static func isSHA256Hex(_ value: String) -> Bool {
        value.utf8.count == 64 && value.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
