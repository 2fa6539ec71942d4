import Foundation
import MountainGraph

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

    /// What was stored, the report, and the next step.
    func text(_ request: IngestRequest) -> String {
        let resortID = request.resortID
        return [
            (resortCreated ? "created resort \(resortID); " : "") + (snapshotStored ? "stored" : "kept the identical")
                + " snapshot \(request.extract.snapshotDate) (\(request.extract.bytes.count) bytes); draft revision \(draftRevision)",
            report.text(),
            "next: summit resort review \(resortID) --accept all (or claims|connectors|rendezvous, or numbers; --out FILE / --draft FILE to edit), "
                + "then summit resort apply \(resortID)",
        ].joined(separator: "\n")
    }
}

/// `summit resort fetch --json`: the answer, and what ingest stored from it
/// or which stored snapshot already holds it.
struct FetchPrintout: Encodable {
    var resortID: String
    var endpoint: String
    var bbox: String
    var attempts: Int
    var answerBytes: Int
    var sha256: String
    var dataTimestamp: String
    var snapshotDate: String
    var nodes: Int
    var ways: Int
    var relations: Int
    var pistes: Int
    var lifts: Int
    var elevationFiles: [String]
    var elevationPolicy: String
    /// `stored`, or `unchanged` when the snapshot of `unchangedAs` holds the same.
    var status: String
    var unchangedAs: String?
    var ingest: IngestPrintout?

    enum CodingKeys: String, CodingKey {
        case resortID = "resort_id"
        case endpoint, bbox, attempts
        case answerBytes = "answer_bytes"
        case sha256
        case dataTimestamp = "data_timestamp"
        case snapshotDate = "snapshot_date"
        case nodes, ways, relations, pistes, lifts
        case elevationFiles = "elevation_files"
        case elevationPolicy = "elevation_policy"
        case status
        case unchangedAs = "unchanged_as"
        case ingest
    }

    init(request: IngestRequest, endpoint: String, box: OSMBoundingBox, checked: CheckedOverpassAnswer, attempts: Int,
         unchangedAs: String?, ingest: IngestPrintout?) {
        resortID = request.resortID
        self.endpoint = endpoint
        bbox = box.text
        self.attempts = attempts
        answerBytes = request.extract.bytes.count
        sha256 = request.extract.sha256
        dataTimestamp = checked.answer.timestampOSMBase ?? ""
        snapshotDate = request.extract.snapshotDate
        nodes = checked.answer.data.nodes.count
        ways = checked.answer.data.ways.count
        relations = checked.answer.relationCount
        pistes = checked.pistes
        lifts = checked.lifts
        elevationFiles = request.elevation.map(\.fileName)
        elevationPolicy = request.elevationPolicy.rawValue
        status = unchangedAs == nil ? "stored" : "unchanged"
        self.unchangedAs = unchangedAs
        self.ingest = ingest
    }

    func text(_ request: IngestRequest) -> String {
        var lines = ["fetched \(answerBytes) bytes from \(endpoint) in \(attempts) attempt\(attempts == 1 ? "" : "s") (data of \(dataTimestamp)): "
            + "\(nodes) nodes, \(ways) ways, \(relations) relations; \(pistes) pistes, \(lifts) lifts"]
        if let ingest {
            lines.append(ingest.text(request))
        } else if let unchangedAs {
            lines.append("unchanged: snapshot \(unchangedAs) of \(resortID) already holds these nodes and ways with this elevation; nothing was stored")
            lines.append("next: summit resort review \(resortID)")
        }
        return lines.joined(separator: "\n")
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
