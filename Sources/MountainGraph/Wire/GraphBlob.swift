import Digest
import ZipArchive

/// A graph ready to store: raw-deflated canonical JSON and its identities.
public struct GraphBlob: Sendable, Equatable {
    /// Raw DEFLATE of `canonicalJSON` (zlib level 6, windowBits −15, memLevel 8).
    public let compressed: [UInt8]
    /// Lowercase hex SHA-256 of the uncompressed canonical JSON: the dataset's content identity.
    public let contentSHA256: String
    /// Lowercase hex SHA-256 of `compressed`, for transport integrity.
    public let blobSHA256: String
    public let fingerprint: String
    public let nodeCount: Int
    public let edgeCount: Int
    public let uncompressedSize: Int

    /// `m<manifest>-v15-<content sha>`.
    public let datasetVersion: String
}

extension MountainGraph {
    /// Encodes, compresses and hashes the graph.
    public func encodeBlob() throws -> GraphBlob {
        let json = canonicalJSON()
        let compressed = try RawDeflate.compress(json, level: 6)
        let content = SHA256.hex(json)
        return GraphBlob(
            compressed: compressed, contentSHA256: content, blobSHA256: SHA256.hex(compressed),
            fingerprint: fingerprint, nodeCount: nodes.count, edgeCount: edges.count,
            uncompressedSize: json.count,
            datasetVersion: "m\(manifestVersion)-\(graphVersion)-\(content)")
    }
}
