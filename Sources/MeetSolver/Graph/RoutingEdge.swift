import Foundation
import MountainGraph

/// One directed edge as the search reads it: indices instead of ids and the
/// attributes the time model needs. Plain values only (no strings), so the
/// search copies it without reference counting.
struct RoutingEdge: Sendable {
    var source: Int32
    var target: Int32
    var kind: EdgeKind
    var lengthMeters: Double
    /// Runs: drop; connectors: uphill gain.
    var verticalDrop: Double
    var maxGradient: Double
    /// Cosine and sine of the aspect, nil when the run has none.
    var aspect: (cos: Double, sin: Double)?
    var aspectVariance: Double
    var difficulty: RunDifficulty?
    var hasMoguls: Bool
    var isGladed: Bool
    var isGroomed: Bool?
    var trailWidth: Double?
    var fallLineExposure: Double?
    var isCrust: Bool
    var midpointElevation: Double
    var liftType: LiftType?
    var liftCapacity: Int?
    var rideTimeSeconds: Double?
    var waitTimeMinutes: Double?
    var isOpen: Bool
    var queueEntry: Bool
    /// Consecutive edges with the same action key are one action (one run, one lift ride).
    var actionKey: Int32

    init(_ edge: GraphEdge, source: Int32, target: Int32, actionKey: Int32) {
        let a = edge.attributes
        self.source = source
        self.target = target
        kind = edge.kind
        lengthMeters = a.lengthMeters
        verticalDrop = a.verticalDrop
        maxGradient = a.maxGradient
        aspect = a.aspect.map { (cos($0 * .pi / 180), sin($0 * .pi / 180)) }
        aspectVariance = a.aspectVariance
        difficulty = a.difficulty
        hasMoguls = a.hasMoguls
        isGladed = a.isGladed
        isGroomed = a.isGroomed
        trailWidth = a.estimatedTrailWidthMeters
        fallLineExposure = a.fallLineExposure
        isCrust = a.estimatedSurfaceCondition == "crust"
        midpointElevation = a.midpointElevation
        liftType = a.liftType
        liftCapacity = a.liftCapacity
        rideTimeSeconds = a.rideTimeSeconds
        waitTimeMinutes = a.waitTimeMinutes
        isOpen = a.isOpen
        queueEntry = a.queueEntry
        self.actionKey = actionKey
    }

    /// The action an edge belongs to: its trail group, and for lifts also its direction.
    static func actionName(_ edge: GraphEdge) -> String {
        let group = edge.attributes.trailGroupId.isEmpty ? edge.id : edge.attributes.trailGroupId
        return edge.kind == .lift ? "\(group)|\(edge.attributes.direction.rawValue)" : group
    }
}
