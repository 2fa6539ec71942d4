/// A directed edge between two graph nodes with its exact source geometry.
public struct GraphEdge: Sendable, Equatable {
    /// `<t|l|c><wayId>[_s<k>][_r]`.
    public var id: String
    public var sourceID: String
    public var targetID: String
    public var kind: EdgeKind
    /// From source node to target node, inclusive.
    public var geometry: [Coordinate]
    public var attributes: EdgeAttributes

    public init(id: String, sourceID: String, targetID: String, kind: EdgeKind,
                geometry: [Coordinate], attributes: EdgeAttributes) {
        self.id = id
        self.sourceID = sourceID
        self.targetID = targetID
        self.kind = kind
        self.geometry = geometry
        self.attributes = attributes
    }

    /// True for the `_r` (reverse of a two-way) direction.
    public var isReverseTwin: Bool { id.hasSuffix("_r") }
}
