import Foundation
import MountainGraph

/// The review step's artifact: a manifest drafted from a snapshot's named
/// ways, the connector proposals still awaiting a decision, and the names that
/// could not become identities (with why). An operator edits it (as a file)
/// or accepts proposals, and `apply` stages its rows. Stored as immutable
/// revisions in `mountain.manifest_drafts`; JSON keys are SQL column names.
struct ManifestDraft: Codable, Sendable, Equatable {
    var resortID: String
    var snapshotDate: String
    /// SHA-256 of the OSM snapshot it was drafted from.
    var osmSHA256: String
    var expectedTrailCount: Int
    var expectedLiftCount: Int
    var headlineTrailCount: Int?
    var headlineLiftCount: Int?
    var canonicalCountsReviewed: Bool
    var evidenceObservedAt: String?
    var evidenceURLs: [String]
    var validatorNotes: String
    var trails: [CanonicalTrail]
    var lifts: [DraftLift]
    /// Accepted connectors, with the evidence they were accepted on.
    var connectors: [DraftConnector]
    var rendezvousPoints: [CanonicalRendezvousPoint]
    /// Proposals not accepted (yet), numbered for `--accept-connectors`.
    var proposals: [DraftConnector]
    var unresolved: [UnresolvedIdentity]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case resortID = "resort_id"
        case snapshotDate = "snapshot_date"
        case osmSHA256 = "osm_sha256"
        case expectedTrailCount = "expected_trail_count"
        case expectedLiftCount = "expected_lift_count"
        case headlineTrailCount = "headline_trail_count"
        case headlineLiftCount = "headline_lift_count"
        case canonicalCountsReviewed = "canonical_counts_reviewed"
        case evidenceObservedAt = "evidence_observed_at"
        case evidenceURLs = "evidence_urls"
        case validatorNotes = "validator_notes"
        case trails, lifts, connectors
        case rendezvousPoints = "rendezvous_points"
        case proposals, unresolved
    }

    /// The rows a build applies.
    var manifest: CanonicalManifest {
        CanonicalManifest(expectedTrailCount: expectedTrailCount, expectedLiftCount: expectedLiftCount,
                          trails: trails, lifts: lifts.map(\.lift), rendezvousPoints: rendezvousPoints,
                          connectors: connectors.map(\.connector))
    }

    /// The same draft with every pending proposal accepted: what the review
    /// report's "after" figures measure.
    var withAllProposalsAccepted: ManifestDraft {
        var copy = self
        copy.accept(numbers: proposals.map(\.number))
        return copy
    }

    /// Moves the numbered proposals into the accepted connectors, giving each
    /// an id above every connector id used so far.
    mutating func accept(numbers: [Int]) {
        let wanted = Set(numbers)
        var nextID = max(CanonicalConnector.reviewedIDBase, (connectors.map(\.connectorID).max() ?? 0) + 1)
        var kept: [DraftConnector] = []
        for proposal in proposals {
            guard wanted.contains(proposal.number) else {
                kept.append(proposal)
                continue
            }
            var accepted = proposal
            accepted.connectorID = nextID
            nextID += 1
            connectors.append(accepted)
        }
        proposals = kept
    }

    // MARK: - Strict reading of an edited file

    /// Reads a draft file, refusing unknown keys anywhere a row is (a misspelt
    /// key would otherwise vanish without a word).
    static func read(_ bytes: [UInt8], file: String) throws -> ManifestDraft {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw CLIError("\(file) is not JSON (\(error.localizedDescription))", fix: "fix the file, or write a fresh one with `summit resort review RESORT --out FILE`")
        }
        guard let top = object as? [String: Any] else {
            throw CLIError("\(file) is not a manifest draft object", fix: "write one with `summit resort review RESORT --out FILE` and edit that")
        }
        try checkKeys(top, allowed: CodingKeys.allCases.map(\.rawValue), where: "\(file)")
        let rowKeys: [(String, [String])] = [
            ("trails", ["name", "difficulty", "is_groomed", "has_moguls", "is_gladed", "length_m", "vert_m",
                        "osm_way_ids", "name_fallback_reviewed"]),
            ("lifts", DraftLift.keys),
            ("connectors", DraftConnector.keys), ("proposals", DraftConnector.keys),
            ("rendezvous_points", ["anchor_osm_node_id", "kind", "display_name", "confidence", "quality"]),
            ("unresolved", ["kind", "name", "osm_way_ids", "code", "message"]),
        ]
        for (list, allowed) in rowKeys {
            for (index, row) in ((top[list] as? [Any]) ?? []).enumerated() {
                guard let row = row as? [String: Any] else {
                    throw CLIError("\(file): \(list) #\(index + 1) is not an object", fix: "each row is a JSON object")
                }
                try checkKeys(row, allowed: allowed, where: "\(file): \(list) #\(index + 1)")
            }
        }
        do {
            return try JSONDecoder().decode(ManifestDraft.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw CLIError("\(file) is not a valid manifest draft (\(ManifestDraft.explain(error)))",
                           fix: "compare it with `summit resort review RESORT --out FILE`")
        }
    }

    private static func checkKeys(_ object: [String: Any], allowed: [String], where place: String) throws {
        let unknown = object.keys.filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw CLIError("\(place) has unknown key\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", "))",
                           fix: "use only \(allowed.joined(separator: ", "))")
        }
    }

    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "#\($0 + 1)" } ?? $0.stringValue }.joined(separator: ".")
            return (path.isEmpty ? "" : path + ": ") + context.debugDescription
        case .keyNotFound(let key, let context):
            let path = (context.codingPath + [key]).map { $0.intValue.map { "#\($0 + 1)" } ?? $0.stringValue }.joined(separator: ".")
            return "\(path) is missing"
        @unknown default:
            return "\(error)"
        }
    }

    /// Pretty, key-sorted JSON for a file an operator edits.
    func fileBytes() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}

/// A lift row: the identity the builder uses plus the reviewed operating
/// facts only the solver reads (waits, stations, hours).
struct DraftLift: Codable, Sendable, Equatable {
    var lift: CanonicalLift
    var weekdayWaitMin: Double?
    var weekendWaitMin: Double?
    var baseCoord: [Double]?
    var topCoord: [Double]?
    var openHour: Double?
    var closeHour: Double?
    var nightCloseHour: Double?

    init(_ lift: CanonicalLift) { self.lift = lift }

    enum ExtraKeys: String, CodingKey, CaseIterable {
        case weekdayWaitMin = "weekday_wait_min"
        case weekendWaitMin = "weekend_wait_min"
        case baseCoord = "base_coord"
        case topCoord = "top_coord"
        case openHour = "open_hour"
        case closeHour = "close_hour"
        case nightCloseHour = "night_close_hour"
    }

    static let keys = ["name", "lift_type", "capacity", "ride_time_s", "vertical_rise_m", "osm_way_ids",
                       "name_fallback_reviewed"] + ExtraKeys.allCases.map(\.rawValue)

    init(from decoder: any Decoder) throws {
        lift = try CanonicalLift(from: decoder)
        let c = try decoder.container(keyedBy: ExtraKeys.self)
        weekdayWaitMin = try c.decodeIfPresent(Double.self, forKey: .weekdayWaitMin)
        weekendWaitMin = try c.decodeIfPresent(Double.self, forKey: .weekendWaitMin)
        baseCoord = try c.decodeIfPresent([Double].self, forKey: .baseCoord)
        topCoord = try c.decodeIfPresent([Double].self, forKey: .topCoord)
        openHour = try c.decodeIfPresent(Double.self, forKey: .openHour)
        closeHour = try c.decodeIfPresent(Double.self, forKey: .closeHour)
        nightCloseHour = try c.decodeIfPresent(Double.self, forKey: .nightCloseHour)
    }

    func encode(to encoder: any Encoder) throws {
        try lift.encode(to: encoder)
        var c = encoder.container(keyedBy: ExtraKeys.self)
        try c.encodeIfPresent(weekdayWaitMin, forKey: .weekdayWaitMin)
        try c.encodeIfPresent(weekendWaitMin, forKey: .weekendWaitMin)
        try c.encodeIfPresent(baseCoord, forKey: .baseCoord)
        try c.encodeIfPresent(topCoord, forKey: .topCoord)
        try c.encodeIfPresent(openHour, forKey: .openHour)
        try c.encodeIfPresent(closeHour, forKey: .closeHour)
        try c.encodeIfPresent(nightCloseHour, forKey: .nightCloseHour)
    }
}

/// A connector, proposed or accepted, with the review step's evidence.
struct DraftConnector: Codable, Sendable, Equatable {
    /// The proposal's number in the review report (stable for one draft).
    var number: Int
    /// Set when accepted; the id its edges carry (`c<connector_id>`).
    var connectorID: Int64
    var kind: String
    var fromOSMNodeID: Int64
    var toOSMNodeID: Int64
    var bidirectional: Bool
    var distanceM: Double
    var fromElevationM: Double
    var toElevationM: Double
    var fromWayID: Int64
    var toWayID: Int64

    enum CodingKeys: String, CodingKey, CaseIterable {
        case number
        case connectorID = "connector_id"
        case kind
        case fromOSMNodeID = "from_osm_node_id"
        case toOSMNodeID = "to_osm_node_id"
        case bidirectional
        case distanceM = "distance_m"
        case fromElevationM = "from_elevation_m"
        case toElevationM = "to_elevation_m"
        case fromWayID = "from_way_id"
        case toWayID = "to_way_id"
    }

    static let keys = CodingKeys.allCases.map(\.rawValue)

    init(number: Int, proposal: ConnectorProposal) {
        self.number = number
        connectorID = 0
        kind = proposal.kind.rawValue
        fromOSMNodeID = proposal.fromOSMNodeID
        toOSMNodeID = proposal.toOSMNodeID
        bidirectional = proposal.bidirectional
        distanceM = proposal.distanceMeters
        fromElevationM = proposal.fromElevation
        toElevationM = proposal.toElevation
        fromWayID = proposal.fromWayID
        toWayID = proposal.toWayID
    }

    var connector: CanonicalConnector {
        CanonicalConnector(connectorID: connectorID, fromOSMNodeID: fromOSMNodeID, toOSMNodeID: toOSMNodeID,
                           bidirectional: bidirectional)
    }

    /// What `canonical_connector.evidence` keeps.
    var evidence: ConnectorEvidence {
        ConnectorEvidence(kind: kind, distanceM: distanceM, fromElevationM: fromElevationM, toElevationM: toElevationM,
                          fromWayID: fromWayID, toWayID: toWayID)
    }

    var summary: String {
        "\(kind) n\(fromOSMNodeID) (way \(fromWayID), \(Self.metres(fromElevationM))) → n\(toOSMNodeID) (way \(toWayID), \(Self.metres(toElevationM))): "
            + "\(Self.metres(distanceM))" + (bidirectional ? ", both ways" : "")
    }

    static func metres(_ value: Double) -> String { String(format: "%.1f m", value) }
}

/// Why a connector was accepted: the review step's measurements.
struct ConnectorEvidence: Codable, Sendable, Equatable {
    var kind: String
    var distanceM: Double
    var fromElevationM: Double
    var toElevationM: Double
    var fromWayID: Int64
    var toWayID: Int64

    enum CodingKeys: String, CodingKey {
        case kind
        case distanceM = "distance_m"
        case fromElevationM = "from_elevation_m"
        case toElevationM = "to_elevation_m"
        case fromWayID = "from_way_id"
        case toWayID = "to_way_id"
    }
}

/// A name that could not become an identity, and why (the build's failure).
struct UnresolvedIdentity: Codable, Sendable, Equatable {
    var kind: String
    var name: String
    var osmWayIDs: [Int64]
    var code: String
    var message: String

    enum CodingKeys: String, CodingKey {
        case kind, name
        case osmWayIDs = "osm_way_ids"
        case code, message
    }
}
