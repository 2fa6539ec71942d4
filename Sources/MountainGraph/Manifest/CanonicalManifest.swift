/// The reviewed rows of one manifest version that a build applies: trail and
/// lift identities, the expected counts, and the rendezvous overlay.
///
/// JSON keys follow the `mountain` schema's column names, so the rows read from
/// SQL (`jsonb_agg` of `canonical_trail` / `canonical_lift`) decode directly.
public struct CanonicalManifest: Sendable, Equatable, Codable {
    public var expectedTrailCount: Int?
    public var expectedLiftCount: Int?
    public var trails: [CanonicalTrail]
    public var lifts: [CanonicalLift]
    public var rendezvousPoints: [CanonicalRendezvousPoint]
    /// Reviewed connectors between existing vertices.
    public var connectors: [CanonicalConnector]

    public init(expectedTrailCount: Int? = nil, expectedLiftCount: Int? = nil,
                trails: [CanonicalTrail] = [], lifts: [CanonicalLift] = [],
                rendezvousPoints: [CanonicalRendezvousPoint] = [], connectors: [CanonicalConnector] = []) {
        self.expectedTrailCount = expectedTrailCount
        self.expectedLiftCount = expectedLiftCount
        self.trails = trails
        self.lifts = lifts
        self.rendezvousPoints = rendezvousPoints
        self.connectors = connectors
    }

    enum CodingKeys: String, CodingKey {
        case expectedTrailCount = "expected_trail_count"
        case expectedLiftCount = "expected_lift_count"
        case trails, lifts
        case rendezvousPoints = "rendezvous_points"
        case connectors
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        expectedTrailCount = try c.decodeIfPresent(Int.self, forKey: .expectedTrailCount)
        expectedLiftCount = try c.decodeIfPresent(Int.self, forKey: .expectedLiftCount)
        trails = try c.decodeIfPresent([CanonicalTrail].self, forKey: .trails) ?? []
        lifts = try c.decodeIfPresent([CanonicalLift].self, forKey: .lifts) ?? []
        rendezvousPoints = try c.decodeIfPresent([CanonicalRendezvousPoint].self, forKey: .rendezvousPoints) ?? []
        connectors = try c.decodeIfPresent([CanonicalConnector].self, forKey: .connectors) ?? []
    }
}

/// One `canonical_trail` row.
public struct CanonicalTrail: Sendable, Equatable, Codable {
    public var name: String
    public var difficulty: RunDifficulty?
    public var isGroomed: Bool?
    public var hasMoguls: Bool
    public var isGladed: Bool
    /// Official length of the whole trail, metres.
    public var lengthM: Double?
    /// Official vertical drop of the whole trail, metres.
    public var vertM: Double?
    /// The OSM ways this trail is made of; authoritative when non-empty.
    public var osmWayIDs: [Int64]
    /// A reviewed, source-less row may claim ways by exact name instead.
    public var nameFallbackReviewed: Bool

    public init(name: String, difficulty: RunDifficulty? = nil, isGroomed: Bool? = nil,
                hasMoguls: Bool = false, isGladed: Bool = false, lengthM: Double? = nil,
                vertM: Double? = nil, osmWayIDs: [Int64] = [], nameFallbackReviewed: Bool = false) {
        self.name = name
        self.difficulty = difficulty
        self.isGroomed = isGroomed
        self.hasMoguls = hasMoguls
        self.isGladed = isGladed
        self.lengthM = lengthM
        self.vertM = vertM
        self.osmWayIDs = osmWayIDs
        self.nameFallbackReviewed = nameFallbackReviewed
    }

    enum CodingKeys: String, CodingKey {
        case name, difficulty
        case isGroomed = "is_groomed"
        case hasMoguls = "has_moguls"
        case isGladed = "is_gladed"
        case lengthM = "length_m"
        case vertM = "vert_m"
        case osmWayIDs = "osm_way_ids"
        case nameFallbackReviewed = "name_fallback_reviewed"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        if let raw = try c.decodeIfPresent(String.self, forKey: .difficulty) {
            guard let value = RunDifficulty(wireName: raw) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .difficulty, in: c,
                    debugDescription: "trail '\(name)': difficulty '\(raw)' is not one of green, blue, black, doubleBlack, terrainPark")
            }
            difficulty = value
        }
        isGroomed = try c.decodeIfPresent(Bool.self, forKey: .isGroomed)
        hasMoguls = try c.decodeIfPresent(Bool.self, forKey: .hasMoguls) ?? false
        isGladed = try c.decodeIfPresent(Bool.self, forKey: .isGladed) ?? false
        lengthM = try c.decodeIfPresent(Double.self, forKey: .lengthM)
        vertM = try c.decodeIfPresent(Double.self, forKey: .vertM)
        osmWayIDs = try ManifestWayIDs.decode(c, .osmWayIDs, owner: "trail '\(name)'")
        nameFallbackReviewed = try c.decodeIfPresent(Bool.self, forKey: .nameFallbackReviewed) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(difficulty?.wireName, forKey: .difficulty)
        try c.encode(isGroomed, forKey: .isGroomed)
        try c.encode(hasMoguls, forKey: .hasMoguls)
        try c.encode(isGladed, forKey: .isGladed)
        try c.encode(lengthM, forKey: .lengthM)
        try c.encode(vertM, forKey: .vertM)
        try c.encode(osmWayIDs.map(String.init), forKey: .osmWayIDs)
        try c.encode(nameFallbackReviewed, forKey: .nameFallbackReviewed)
    }
}

/// One `canonical_lift` row.
public struct CanonicalLift: Sendable, Equatable, Codable {
    public var name: String
    public var liftType: LiftType?
    public var capacity: Int?
    /// Official ride time of the whole lift, seconds, per direction.
    public var rideTimeS: Double?
    /// Official vertical rise of the whole lift, metres.
    public var verticalRiseM: Double?
    public var osmWayIDs: [Int64]
    public var nameFallbackReviewed: Bool

    public init(name: String, liftType: LiftType? = nil, capacity: Int? = nil, rideTimeS: Double? = nil,
                verticalRiseM: Double? = nil, osmWayIDs: [Int64] = [], nameFallbackReviewed: Bool = false) {
        self.name = name
        self.liftType = liftType
        self.capacity = capacity
        self.rideTimeS = rideTimeS
        self.verticalRiseM = verticalRiseM
        self.osmWayIDs = osmWayIDs
        self.nameFallbackReviewed = nameFallbackReviewed
    }

    enum CodingKeys: String, CodingKey {
        case name
        case liftType = "lift_type"
        case capacity
        case rideTimeS = "ride_time_s"
        case verticalRiseM = "vertical_rise_m"
        case osmWayIDs = "osm_way_ids"
        case nameFallbackReviewed = "name_fallback_reviewed"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        liftType = try c.decodeIfPresent(String.self, forKey: .liftType).map(LiftType.init(tag:))
        capacity = try c.decodeIfPresent(Int.self, forKey: .capacity)
        rideTimeS = try c.decodeIfPresent(Double.self, forKey: .rideTimeS)
        verticalRiseM = try c.decodeIfPresent(Double.self, forKey: .verticalRiseM)
        osmWayIDs = try ManifestWayIDs.decode(c, .osmWayIDs, owner: "lift '\(name)'")
        nameFallbackReviewed = try c.decodeIfPresent(Bool.self, forKey: .nameFallbackReviewed) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(liftType?.rawValue, forKey: .liftType)
        try c.encode(capacity, forKey: .capacity)
        try c.encode(rideTimeS, forKey: .rideTimeS)
        try c.encode(verticalRiseM, forKey: .verticalRiseM)
        try c.encode(osmWayIDs.map(String.init), forKey: .osmWayIDs)
        try c.encode(nameFallbackReviewed, forKey: .nameFallbackReviewed)
    }
}

/// One `canonical_rendezvous_point` overlay row.
public struct CanonicalRendezvousPoint: Sendable, Equatable, Codable {
    public var anchorOSMNodeID: Int64
    public var kind: RendezvousPoint.Kind
    public var displayName: String
    public var confidence: Double
    public var quality: Double

    public init(anchorOSMNodeID: Int64, kind: RendezvousPoint.Kind, displayName: String,
                confidence: Double, quality: Double) {
        self.anchorOSMNodeID = anchorOSMNodeID
        self.kind = kind
        self.displayName = displayName
        self.confidence = confidence
        self.quality = quality
    }

    enum CodingKeys: String, CodingKey {
        case anchorOSMNodeID = "anchor_osm_node_id"
        case kind
        case displayName = "display_name"
        case confidence, quality
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        anchorOSMNodeID = try c.decode(Int64.self, forKey: .anchorOSMNodeID)
        let rawKind = try c.decode(String.self, forKey: .kind)
        guard let kind = RendezvousPoint.Kind(rawValue: rawKind) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription: "rendezvous kind '\(rawKind)' is not one of \(RendezvousPoint.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.kind = kind
        displayName = try c.decode(String.self, forKey: .displayName)
        confidence = try c.decode(Double.self, forKey: .confidence)
        quality = try c.decode(Double.self, forKey: .quality)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(anchorOSMNodeID, forKey: .anchorOSMNodeID)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(quality, forKey: .quality)
    }
}

/// `osm_way_ids` is `text[]` in SQL; accept strings or numbers.
enum ManifestWayIDs {
    static func decode<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K, owner: String) throws -> [Int64] {
        if let numbers = try? c.decodeIfPresent([Int64].self, forKey: key) { return numbers }
        guard let strings = try c.decodeIfPresent([String].self, forKey: key) else { return [] }
        return try strings.map { text in
            guard let id = Int64(text.trimmingPrefix("way/")) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "\(owner): osm_way_ids entry '\(text)' is not a way id")
            }
            return id
        }
    }
}
