import Foundation

/// `summit resort ingest --json`.
struct IngestPrintout: Encodable {
    var resortCreated: Bool
    var snapshotStored: Bool
    var draftRevision: Int
    var report: ReviewReport

    enum CodingKeys: String, CodingKey {
        case resortCreated = "resort_created"
        case snapshotStored = "snapshot_stored"
        case draftRevision = "draft_revision"
        case report
    }
}

/// `summit resort synth --json`.
struct SynthPrintout: Encodable {
    var seed: UInt64
    var size: Int
    var bytes: Int
    var sha256: String
    var file: String
}

/// `summit resort get`: the answer without the graph itself.
struct GetPrintout: Encodable {
    var status: String
    var exact: Bool
    var identity: DatasetIdentity?
    var current: DatasetIdentity?
    var statusRef: GraphStatusReference?
    /// Set when a graph was served and passed verification.
    var verified: Bool
    var identities: Int?
    var rendezvousPoints: Int?

    enum CodingKeys: String, CodingKey {
        case status, exact, identity, current
        case statusRef = "status_ref"
        case verified, identities
        case rendezvousPoints = "rendezvous_points"
    }

    init(_ fetch: GraphFetch) {
        status = fetch.status
        exact = fetch.exact
        identity = fetch.identity
        current = fetch.current
        statusRef = fetch.statusReference
        verified = fetch.graph != nil
        identities = fetch.graph?.identities.count
        rendezvousPoints = fetch.graph?.rendezvousPoints.count
    }

    var text: String {
        var lines = ["status: \(status)"]
        switch status {
        case "no_canonical_dataset":
            lines.append("nothing is published for this resort yet")
        case "not_found":
            lines.append("that identity was never published")
        default:
            break
        }
        if let identity {
            lines.append("served: \(identity.line)" + (exact ? "" : " (manifest-only request: not an exact identity match)"))
            if verified {
                lines.append("verified: blob and content SHA-256, identity, fingerprint, node/edge identity and ranges; "
                    + "\(identities ?? 0) identities, \(rendezvousPoints ?? 0) rendezvous points")
            }
        }
        if let current, current.datasetVersion != identity?.datasetVersion {
            lines.append("active: \(current.line)")
        }
        if let statusRef {
            lines.append("status sidecar: \(statusRef.hourKey) from \(statusRef.source), expires \(statusRef.expiresAt)\(statusRef.usable ? "" : " (not usable now)")")
        } else if identity != nil {
            lines.append("status sidecar: none for this identity")
        }
        return lines.joined(separator: "\n")
    }
}
