import Foundation
import JSONDepth
import MountainGraph

/// The review step's artifact: a manifest drafted from a snapshot's named
/// ways, the proposals still awaiting a decision (identities for unclaimed
/// ways, connectors, rendezvous points, numbered once across the three), and
/// the ways that could not become identities (with why). An operator edits it
/// (as a file) or accepts proposals, and `apply` stages its rows. Stored as
/// immutable revisions in `mountain.manifest_drafts`; JSON keys are SQL
/// column names.
package struct ManifestDraft: Codable, Sendable, Equatable {
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
    /// Connector proposals not accepted (yet), numbered for `--accept`.
    package var proposals: [DraftConnector]
    package var claimProposals: [DraftClaim] = []
    package var rendezvousProposals: [DraftRendezvous] = []
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
        case proposals
        case claimProposals = "claim_proposals"
        case rendezvousProposals = "rendezvous_proposals"
        case unresolved
    }

    init(resortID: String, snapshotDate: String, osmSHA256: String, expectedTrailCount: Int, expectedLiftCount: Int,
         headlineTrailCount: Int?, headlineLiftCount: Int?, canonicalCountsReviewed: Bool, evidenceObservedAt: String?,
         evidenceURLs: [String], validatorNotes: String, trails: [CanonicalTrail], lifts: [DraftLift],
         connectors: [DraftConnector], rendezvousPoints: [CanonicalRendezvousPoint], proposals: [DraftConnector],
         claimProposals: [DraftClaim] = [], rendezvousProposals: [DraftRendezvous] = [], unresolved: [UnresolvedIdentity]) {
        self.resortID = resortID
        self.snapshotDate = snapshotDate
        self.osmSHA256 = osmSHA256
        self.expectedTrailCount = expectedTrailCount
        self.expectedLiftCount = expectedLiftCount
        self.headlineTrailCount = headlineTrailCount
        self.headlineLiftCount = headlineLiftCount
        self.canonicalCountsReviewed = canonicalCountsReviewed
        self.evidenceObservedAt = evidenceObservedAt
        self.evidenceURLs = evidenceURLs
        self.validatorNotes = validatorNotes
        self.trails = trails
        self.lifts = lifts
        self.connectors = connectors
        self.rendezvousPoints = rendezvousPoints
        self.proposals = proposals
        self.claimProposals = claimProposals
        self.rendezvousProposals = rendezvousProposals
        self.unresolved = unresolved
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        resortID = try c.decode(String.self, forKey: .resortID)
        snapshotDate = try c.decode(String.self, forKey: .snapshotDate)
        osmSHA256 = try c.decode(String.self, forKey: .osmSHA256)
        expectedTrailCount = try c.decode(Int.self, forKey: .expectedTrailCount)
        expectedLiftCount = try c.decode(Int.self, forKey: .expectedLiftCount)
        headlineTrailCount = try c.decodeIfPresent(Int.self, forKey: .headlineTrailCount)
        headlineLiftCount = try c.decodeIfPresent(Int.self, forKey: .headlineLiftCount)
        canonicalCountsReviewed = try c.decode(Bool.self, forKey: .canonicalCountsReviewed)
        evidenceObservedAt = try c.decodeIfPresent(String.self, forKey: .evidenceObservedAt)
        evidenceURLs = try c.decode([String].self, forKey: .evidenceURLs)
        validatorNotes = try c.decode(String.self, forKey: .validatorNotes)
        trails = try c.decode([CanonicalTrail].self, forKey: .trails)
        lifts = try c.decode([DraftLift].self, forKey: .lifts)
        connectors = try c.decode([DraftConnector].self, forKey: .connectors)
        rendezvousPoints = try c.decode([CanonicalRendezvousPoint].self, forKey: .rendezvousPoints)
        proposals = try c.decode([DraftConnector].self, forKey: .proposals)
        claimProposals = try c.decodeIfPresent([DraftClaim].self, forKey: .claimProposals) ?? []
        rendezvousProposals = try c.decodeIfPresent([DraftRendezvous].self, forKey: .rendezvousProposals) ?? []
        unresolved = try c.decode([UnresolvedIdentity].self, forKey: .unresolved)
    }

    /// A fresh draft: the drafted identities, and every proposal the review
    /// step makes for them, numbered claims first, then connectors, then
    /// rendezvous points.
    package static func make(resortID: String, snapshot: SnapshotInputs, drafted: ManifestDrafter.Draft,
                     expectedTrailCount: Int?, expectedLiftCount: Int?, canonicalCountsReviewed: Bool) throws -> ManifestDraft {
        var draft = ManifestDraft(
            resortID: resortID, snapshotDate: snapshot.snapshotDate, osmSHA256: snapshot.sha256,
            expectedTrailCount: expectedTrailCount ?? drafted.trails.count, expectedLiftCount: expectedLiftCount ?? drafted.lifts.count,
            headlineTrailCount: nil, headlineLiftCount: nil, canonicalCountsReviewed: canonicalCountsReviewed,
            evidenceObservedAt: nil, evidenceURLs: [], validatorNotes: "",
            trails: drafted.trails, lifts: drafted.lifts.map(DraftLift.init), connectors: [], rendezvousPoints: [],
            proposals: [], unresolved: drafted.unresolved)
        try draft.propose(snapshot)
        return draft
    }

    /// Replaces the pending proposals with the review step's proposals for
    /// the rows as they stand now.
    mutating func propose(_ snapshot: SnapshotInputs) throws {
        var manifest = self.manifest
        manifest.expectedTrailCount = nil
        manifest.expectedLiftCount = nil
        let found: ReviewProposals
        do {
            found = try ResortReview.propose(osm: snapshot.osm, elevation: snapshot.elevation, manifest: manifest, options: snapshot.options)
        } catch {
            throw SnapshotRefusal.doesNotBuild(error, source: snapshot.sourceName)
        }
        var number = 0
        func next() -> Int { number += 1; return number }
        claimProposals = found.claims.map { DraftClaim(number: next(), proposal: $0) }
        proposals = found.connectors.map { DraftConnector(number: next(), proposal: $0) }
        rendezvousProposals = found.rendezvous.map { DraftRendezvous(number: next(), proposal: $0) }
        unresolved.removeAll { $0.code == UnresolvedIdentity.unclaimableCode }
        unresolved += found.unclaimable.map {
            UnresolvedIdentity(kind: $0.kind.rawValue, name: $0.name ?? "(unnamed)", osmWayIDs: $0.wayIDs,
                               code: UnresolvedIdentity.unclaimableCode, message: $0.reason)
        }
    }

    /// What each `--accept` word selects.
    package enum ProposalKind: String, CaseIterable, Sendable {
        case claims, connectors, rendezvous
    }

    /// Every pending proposal's number, by kind.
    func numbers(of kinds: Set<ProposalKind>) -> [Int] {
        (kinds.contains(.claims) ? claimProposals.map(\.number) : [])
            + (kinds.contains(.connectors) ? proposals.map(\.number) : [])
            + (kinds.contains(.rendezvous) ? rendezvousProposals.map(\.number) : [])
    }

    var pendingNumbers: Set<Int> { Set(numbers(of: Set(ProposalKind.allCases))) }

    /// The same draft with the pending proposals of `kinds` accepted.
    func accepting(_ kinds: Set<ProposalKind>) -> ManifestDraft {
        var copy = self
        copy.accept(numbers: numbers(of: kinds))
        return copy
    }

    /// The rows a build applies.
    package var manifest: CanonicalManifest {
        CanonicalManifest(expectedTrailCount: expectedTrailCount, expectedLiftCount: expectedLiftCount,
                          trails: trails, lifts: lifts.map(\.lift), rendezvousPoints: rendezvousPoints,
                          connectors: connectors.map(\.connector))
    }

    /// The same draft with every pending proposal accepted.
    package var withAllProposalsAccepted: ManifestDraft { accepting(Set(ProposalKind.allCases)) }

    /// Moves the numbered proposals into the manifest: claims become trail or
    /// lift rows (the expected counts follow while they are not reviewed),
    /// connectors get ids above every connector id used so far, rendezvous
    /// points join the overlay.
    mutating func accept(numbers: [Int]) {
        // A proposal that an edit has already covered (a way now claimed, an
        // anchor now in the overlay) is settled without adding a second row.
        let wanted = Set(numbers)
        var claimed = Set(trails.flatMap(\.osmWayIDs) + lifts.flatMap(\.lift.osmWayIDs))
        for claim in claimProposals where wanted.contains(claim.number) && claimed.isDisjoint(with: claim.osmWayIDs) {
            if let trail = claim.trail { trails.append(trail) }
            if let lift = claim.lift { lifts.append(DraftLift(lift)) }
            claimed.formUnion(claim.osmWayIDs)
        }
        claimProposals.removeAll { wanted.contains($0.number) }
        if !canonicalCountsReviewed {
            expectedTrailCount = trails.count
            expectedLiftCount = lifts.count
        }
        var anchors = Set(rendezvousPoints.map(\.anchorOSMNodeID))
        for proposal in rendezvousProposals where wanted.contains(proposal.number) && anchors.insert(proposal.point.anchorOSMNodeID).inserted {
            rendezvousPoints.append(proposal.point)
        }
        rendezvousProposals.removeAll { wanted.contains($0.number) }
        var nextID = max(CanonicalConnector.reviewedIDBase, (connectors.map(\.connectorID).max() ?? 0) + 1)
        var kept: [DraftConnector] = []
        var linked = Set(connectors.map { [min($0.fromOSMNodeID, $0.toOSMNodeID), max($0.fromOSMNodeID, $0.toOSMNodeID)] })
        for proposal in proposals {
            guard wanted.contains(proposal.number) else {
                kept.append(proposal)
                continue
            }
            guard linked.insert([min(proposal.fromOSMNodeID, proposal.toOSMNodeID), max(proposal.fromOSMNodeID, proposal.toOSMNodeID)]).inserted else { continue }
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
        do {
            try JSONDepth.check(bytes)
        } catch {
            throw CLIError("\(file) is too deep for a manifest draft (\(error))",
                           fix: "write a fresh one with `summit resort review RESORT --out FILE` and edit that")
        }
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
            ("claim_proposals", DraftClaim.keys), ("rendezvous_proposals", DraftRendezvous.keys),
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
package struct DraftConnector: Codable, Sendable, Equatable {
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

/// An identity proposal with its evidence, numbered for `--accept`.
package struct DraftClaim: Codable, Sendable, Equatable {
    var number: Int
    var kind: String
    var name: String
    var sourceName: String?
    var reason: String
    var osmWayIDs: [Int64]
    var lengthM: Double
    var topElevationM: Double
    var bottomElevationM: Double
    var difficulty: String?
    var liftType: String?
    var capacity: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case number, kind, name
        case sourceName = "source_name"
        case reason
        case osmWayIDs = "osm_way_ids"
        case lengthM = "length_m"
        case topElevationM = "top_elevation_m"
        case bottomElevationM = "bottom_elevation_m"
        case difficulty
        case liftType = "lift_type"
        case capacity
    }

    static let keys = CodingKeys.allCases.map(\.rawValue)

    init(number: Int, proposal: ClaimProposal) {
        self.number = number
        kind = proposal.kind.rawValue
        name = proposal.name
        sourceName = proposal.sourceName
        reason = proposal.reason.rawValue
        osmWayIDs = proposal.wayIDs
        lengthM = proposal.lengthMeters
        topElevationM = proposal.topElevation
        bottomElevationM = proposal.bottomElevation
        difficulty = proposal.difficulty?.wireName
        liftType = proposal.liftType?.rawValue
        capacity = proposal.capacity
    }

    var trail: CanonicalTrail? {
        kind == "trail" ? CanonicalTrail(name: name, difficulty: difficulty.flatMap(RunDifficulty.init(wireName:)), osmWayIDs: osmWayIDs) : nil
    }

    var lift: CanonicalLift? {
        kind == "lift" ? CanonicalLift(name: name, liftType: liftType.map(LiftType.init(tag:)), capacity: capacity, osmWayIDs: osmWayIDs) : nil
    }

    var summary: String {
        "\(kind) \"\(name)\" (\(reason)\(sourceName.map { " of \"\($0)\"" } ?? "")) ways \(osmWayIDs.map(String.init).joined(separator: ",")): "
            + "\(DraftConnector.metres(lengthM)), \(DraftConnector.metres(topElevationM)) → \(DraftConnector.metres(bottomElevationM))"
            + (difficulty.map { ", \($0)" } ?? "") + (liftType.map { ", \($0)" } ?? "")
    }
}

/// A rendezvous proposal with its evidence, numbered for `--accept`.
package struct DraftRendezvous: Codable, Sendable, Equatable {
    var number: Int
    /// The overlay row it becomes.
    var point: CanonicalRendezvousPoint
    var source: String
    var evidence: String

    static let keys = ["number", "point", "source", "evidence"]

    init(number: Int, proposal: RendezvousProposal) {
        self.number = number
        point = proposal.point
        source = proposal.source.rawValue
        evidence = proposal.evidence
    }

    var summary: String {
        "\(point.kind.rawValue) \"\(point.displayName)\" at n\(point.anchorOSMNodeID) (\(source): \(evidence))"
    }
}

/// A name that could not become an identity, and why (the build's failure).
struct UnresolvedIdentity: Codable, Sendable, Equatable {
    /// The code of ways the review step could not claim even one by one.
    static let unclaimableCode = "unclaimable"

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
