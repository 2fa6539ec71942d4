import MountainGraph

/// One built graph's identity as the SQL side reports it: the triple every
/// later stage keys on (manifest version, graph version, content SHA), the
/// snapshot date beside it, and the figures a client re-checks.
struct DatasetIdentity: Codable, Sendable, Equatable {
    var resortID: String
    var manifestVersion: Int
    var graphVersion: String
    var snapshotDate: String
    var contentSHA256: String
    var blobSHA256: String
    var datasetVersion: String
    var fingerprint: String
    var nodeCount: Int
    var edgeCount: Int

    enum CodingKeys: String, CodingKey {
        case resortID = "resort_id"
        case manifestVersion = "manifest_version"
        case graphVersion = "graph_version"
        case snapshotDate = "snapshot_date"
        case contentSHA256 = "content_sha256"
        case blobSHA256 = "blob_sha256"
        case datasetVersion = "dataset_version"
        case fingerprint
        case nodeCount = "node_count"
        case edgeCount = "edge_count"
    }

    /// What `ingress` needs to accept the blob of this identity.
    var expectation: ExpectedDataset {
        ExpectedDataset(resortID: resortID, manifestVersion: manifestVersion, snapshotDate: snapshotDate,
                        contentSHA256: contentSHA256, blobSHA256: blobSHA256)
    }

    /// The exact `summit resort publish` of this identity (the snapshot date
    /// follows from the content sha256, which covers it).
    var publishCommand: String {
        "summit resort publish \(resortID) --manifest-version \(manifestVersion) --content-sha256 \(contentSHA256)"
            + (graphVersion == MountainGraph.graphVersion ? "" : " --graph-version \(graphVersion)")
    }

    var line: String {
        "\(resortID) \(datasetVersion) (snapshot \(snapshotDate), \(nodeCount) nodes, \(edgeCount) edges, fingerprint \(fingerprint))"
    }
}
