import MountainGraph

/// The immutable mountain a meet is planned on: the built graph (status not
/// applied), its canonical identity when it has one, the reviewed lift hours
/// and waits, and where the resort is (for the sun and, failing anything
/// better, its clock).
public struct MeetDataset: Sendable {
    public let graph: MountainGraph
    /// Nil for a preview (non-canonical) map: it can never make a live meet.
    public let identity: DatasetVersion?
    public let liftOperations: LiftOperations
    public let location: Coordinate
    /// The resort's IANA zone, used when the weather feed gives no offset.
    public let timeZoneIdentifier: String?

    public init(graph: MountainGraph, identity: DatasetVersion?, liftOperations: LiftOperations = .none,
                location: Coordinate? = nil, timeZoneIdentifier: String? = nil) {
        self.graph = graph
        self.identity = identity
        self.liftOperations = liftOperations
        self.location = location ?? Self.centre(of: graph)
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    public var isCanonical: Bool { identity != nil }

    /// `m<manifest>-<graph version>-<sha>`, or nil for a preview map.
    public var datasetVersion: String? { identity?.description }

    /// The middle of the graph's extent.
    static func centre(of graph: MountainGraph) -> Coordinate {
        guard let first = graph.nodes.first else { return Coordinate(lat: 0, lon: 0) }
        var south = first.lat, north = first.lat, west = first.lon, east = first.lon
        for node in graph.nodes {
            south = min(south, node.lat); north = max(north, node.lat)
            west = min(west, node.lon); east = max(east, node.lon)
        }
        return Coordinate(lat: (south + north) / 2, lon: (west + east) / 2)
    }
}
