/// An immutable, canonical lift-and-trail graph with its dataset identity.
///
/// Nodes and edges are held sorted by id (UTF-8 byte order), identities by
/// (kind, name) and rendezvous points by id, so encoding, hashing and any
/// iteration a caller does are deterministic.
public struct MountainGraph: Sendable, Equatable {
    public static let graphVersion = "v15"

    public let resortID: String
    public let manifestVersion: Int
    /// `YYYY-MM-DD` of the OSM snapshot, from the request, never from a clock.
    public let snapshotDate: String
    public let graphVersion: String
    public let nodes: [GraphNode]
    public let edges: [GraphEdge]
    public let identities: [GraphIdentity]
    public let rendezvousPoints: [RendezvousPoint]
    private let nodeIndex: [String: Int]

    public init(resortID: String, manifestVersion: Int, snapshotDate: String,
                graphVersion: String = MountainGraph.graphVersion,
                nodes: [GraphNode], edges: [GraphEdge],
                identities: [GraphIdentity] = [], rendezvousPoints: [RendezvousPoint] = []) {
        self.resortID = resortID
        self.manifestVersion = manifestVersion
        self.snapshotDate = snapshotDate
        self.graphVersion = graphVersion
        self.nodes = nodes.sorted { utf8Less($0.id, $1.id) }
        self.edges = edges.sorted { utf8Less($0.id, $1.id) }
        self.identities = identities.sorted {
            $0.kind.rawValue != $1.kind.rawValue ? $0.kind.rawValue < $1.kind.rawValue : utf8Less($0.name, $1.name)
        }
        self.rendezvousPoints = rendezvousPoints.sorted { utf8Less($0.id, $1.id) }
        var index = [String: Int](minimumCapacity: self.nodes.count)
        for (position, node) in self.nodes.enumerated() { index[node.id] = position }
        self.nodeIndex = index
    }

    public func node(id: String) -> GraphNode? {
        nodeIndex[id].map { nodes[$0] }
    }

    /// The position of a node in `nodes`.
    func nodePosition(id: String) -> Int? { nodeIndex[id] }

    public static func == (lhs: MountainGraph, rhs: MountainGraph) -> Bool {
        lhs.resortID == rhs.resortID && lhs.manifestVersion == rhs.manifestVersion
            && lhs.snapshotDate == rhs.snapshotDate && lhs.graphVersion == rhs.graphVersion
            && lhs.nodes == rhs.nodes && lhs.edges == rhs.edges
            && lhs.identities == rhs.identities && lhs.rendezvousPoints == rhs.rendezvousPoints
    }
}

/// Byte-wise ordering of UTF-8 strings: the one order every sorted output uses.
@inline(__always) func utf8Less(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
