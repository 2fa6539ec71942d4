/// A reviewed connector: an explicit link between two existing OSM vertices,
/// accepted by an operator from the review step's proposals. The build treats
/// it exactly like a `piste:type=connection` way; nothing is ever inferred.
///
/// Its id takes the place of a way id in edge ids (`c<connectorID>`), so it
/// must not collide with an OSM way; the review step hands out ids from
/// `reviewedIDBase`, far above any OSM way id.
public struct CanonicalConnector: Sendable, Equatable, Codable {
    public static let reviewedIDBase: Int64 = 9_000_000_000_000

    public var connectorID: Int64
    public var fromOSMNodeID: Int64
    public var toOSMNodeID: Int64
    /// False: only from → to (a lift exit onto a piste, a piste into a lift queue).
    public var bidirectional: Bool

    public init(connectorID: Int64, fromOSMNodeID: Int64, toOSMNodeID: Int64, bidirectional: Bool) {
        self.connectorID = connectorID
        self.fromOSMNodeID = fromOSMNodeID
        self.toOSMNodeID = toOSMNodeID
        self.bidirectional = bidirectional
    }

    enum CodingKeys: String, CodingKey {
        case connectorID = "connector_id"
        case fromOSMNodeID = "from_osm_node_id"
        case toOSMNodeID = "to_osm_node_id"
        case bidirectional
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        connectorID = try c.decode(Int64.self, forKey: .connectorID)
        fromOSMNodeID = try c.decode(Int64.self, forKey: .fromOSMNodeID)
        toOSMNodeID = try c.decode(Int64.self, forKey: .toOSMNodeID)
        bidirectional = try c.decodeIfPresent(Bool.self, forKey: .bidirectional) ?? true
    }
}
