import MountainGraph

/// One outgoing edge as the label search steps along it: where it leads,
/// its action, and the facts the snow surface reads. Kept beside the other
/// outgoing edges of the same node, so a step reads one short stretch of
/// memory instead of the edges' full attributes.
struct OutEdge: Sendable {
    var index: Int32
    var target: Int32
    var actionKey: Int32
    var kind: EdgeKind
    /// Whether anything leaves the target: a label arriving where nothing
    /// leads on is never extended. Kept here (in the padding after the
    /// kind) so a step need not read the target's row bounds.
    var targetLeadsOn: Bool
    var aspect: (cos: Double, sin: Double)?
    var aspectVariance: Double
    var midpointElevation: Double

    init(_ edge: RoutingEdge, index: Int32, targetLeadsOn: Bool) {
        self.index = index
        self.targetLeadsOn = targetLeadsOn
        target = edge.target
        actionKey = edge.actionKey
        kind = edge.kind
        aspect = edge.aspect
        aspectVariance = edge.aspectVariance
        midpointElevation = edge.midpointElevation
    }
}
