import Foundation
import MountainGraph
import Postgres

/// What a client asks `get_resort_graph` for.
struct GraphRequest: Sendable {
    var cachedManifestVersion: Int?
    var cachedContentSHA256: String?
    /// Exact replay: all three; manifest version alone: the legacy lookup.
    var manifestVersion: Int?
    var graphVersion: String?
    var contentSHA256: String?
    var snapshotDate: String?
}

/// The answer, with the graph decoded and verified when one was served.
struct GraphFetch: Sendable {
    /// `fetch`, `cache_valid`, `not_found` or `no_canonical_dataset`.
    var status: String
    var identity: DatasetIdentity?
    var current: DatasetIdentity?
    /// False for a manifest-only request: never an exact identity match.
    var exact: Bool
    var statusReference: GraphStatusReference?
    var graph: MountainGraph?
}

/// The newest status sidecar of the identity served.
struct GraphStatusReference: Codable, Sendable {
    var hourKey: String
    var observedAt: String
    var expiresAt: String
    var source: String
    var usable: Bool

    enum CodingKeys: String, CodingKey {
        case hourKey = "hour_key"
        case observedAt = "observed_at"
        case expiresAt = "expires_at"
        case source, usable
    }
}

/// A served blob that failed the client's checks; nothing was kept.
struct IngressRefusal: Error, CustomStringConvertible {
    let identity: DatasetIdentity
    let reason: String

    var description: String {
        "the graph served for \(identity.resortID) \(identity.datasetVersion) fails verification: \(reason); nothing was written"
    }
}

extension ResortPipeline {
    /// Calls `get_resort_graph` as `caller` (RLS applies) and, when a blob is
    /// served, accepts it only after the client's ingress checks: blob and
    /// content SHA-256, requested identity, fingerprint (advertised inside the
    /// blob and recorded beside it), node/edge identity and ranges.
    func fetch(_ resortID: String, _ request: GraphRequest, as caller: Caller) async throws -> GraphFetch {
        let session = AppSession(connection: connection)
        let answer = try await session.call("mountain.get_resort_graph", [
            ("p_resort_id", resortID), ("p_cached_manifest_version", request.cachedManifestVersion),
            ("p_cached_content_sha256", request.cachedContentSHA256), ("p_manifest_version", request.manifestVersion),
            ("p_graph_version", request.graphVersion), ("p_content_sha256", request.contentSHA256),
            ("p_snapshot_date", request.snapshotDate),
        ], as: caller)
        let data = Data(answer.text.utf8)
        let decoder = JSONDecoder()
        let status = answer.json["status"].string ?? ""
        struct Envelope: Decodable {
            var current: DatasetIdentity?
            var exact: Bool?
            var statusRef: GraphStatusReference?
            var blob: String?
            enum CodingKeys: String, CodingKey {
                case current, exact
                case statusRef = "status_ref"
                case blob
            }
        }
        let envelope = try decoder.decode(Envelope.self, from: data)
        var fetch = GraphFetch(status: status, identity: nil, current: envelope.current, exact: envelope.exact ?? false,
                               statusReference: envelope.statusRef, graph: nil)
        guard status == "fetch" || status == "cache_valid" else { return fetch }
        let identity = try decoder.decode(DatasetIdentity.self, from: data)
        fetch.identity = identity
        guard status == "fetch" else { return fetch }

        guard let text = envelope.blob, let compressed = Data(base64Encoded: text) else {
            throw IngressRefusal(identity: identity, reason: "the blob is missing or not base64")
        }
        let graph: MountainGraph
        do {
            graph = try MountainGraph.decodeBlob(Array(compressed), expecting: identity.expectation)
        } catch {
            throw IngressRefusal(identity: identity, reason: error.description)
        }
        // The cache envelope carries the fingerprint too: it must agree with the graph.
        guard graph.fingerprint == identity.fingerprint, graph.nodes.count == identity.nodeCount,
              graph.edges.count == identity.edgeCount, graph.graphVersion == identity.graphVersion else {
            throw IngressRefusal(identity: identity, reason:
                "recorded fingerprint \(identity.fingerprint) does not match the graph's \(graph.fingerprint)")
        }
        fetch.graph = graph
        return fetch
    }
}
