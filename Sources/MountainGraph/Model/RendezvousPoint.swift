/// An explicit meeting place anchored on a graph node.
public struct RendezvousPoint: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case lodge, restaurant, liftBase, liftTop, midStation, summit, landmark
    }

    /// `"rp" + anchor vertex id`.
    public var id: String
    /// `"n" + anchor vertex id`.
    public var nodeId: String
    public var kind: Kind
    public var displayName: String
    public var confidence: Double
    public var quality: Double

    public init(id: String, nodeId: String, kind: Kind, displayName: String, confidence: Double, quality: Double) {
        self.id = id
        self.nodeId = nodeId
        self.kind = kind
        self.displayName = displayName
        self.confidence = confidence
        self.quality = quality
    }
}
