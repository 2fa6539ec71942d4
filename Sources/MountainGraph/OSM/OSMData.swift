/// One OSM node (a vertex) with its exact source coordinates and tags.
public struct OSMNode: Sendable, Equatable {
    public let id: Int64
    public let lat: Double
    public let lon: Double
    public let tags: [String: String]

    public init(id: Int64, lat: Double, lon: Double, tags: [String: String] = [:]) {
        self.id = id
        self.lat = lat
        self.lon = lon
        self.tags = tags
    }
}

/// One OSM way: an ordered list of vertex ids and its tags.
public struct OSMWay: Sendable, Equatable {
    public let id: Int64
    public let nodeIDs: [Int64]
    public let tags: [String: String]

    public init(id: Int64, nodeIDs: [Int64], tags: [String: String] = [:]) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }
}

/// An OSM snapshot: every vertex by id and the ways sorted by id.
///
/// Relations are not read: the graph is built from ways and their vertices
/// only. Ways are kept sorted by numeric id because every later step iterates
/// them in that order (determinism contract).
public struct OSMData: Sendable {
    public private(set) var nodes: [Int64: OSMNode]
    public private(set) var ways: [OSMWay]

    public init(nodes: [Int64: OSMNode], ways: [OSMWay]) {
        self.nodes = nodes
        self.ways = ways.sorted { $0.id < $1.id }
    }

    public func node(_ id: Int64) -> OSMNode? { nodes[id] }
}
