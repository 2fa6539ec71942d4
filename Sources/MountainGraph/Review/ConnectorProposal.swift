/// A connector the review step suggests, with the evidence an operator needs
/// to accept or reject it. Proposals never reach a graph by themselves.
public struct ConnectorProposal: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Lift top → nearest piste vertex: skiers leave the lift onto a run.
        case liftExit
        /// Piste vertex → lift base: skiers reach the lift queue.
        case liftEntry
        /// Two pistes whose ends almost touch without sharing a vertex.
        case pisteGap
    }

    public var kind: Kind
    public var fromOSMNodeID: Int64
    public var toOSMNodeID: Int64
    public var bidirectional: Bool
    /// Evidence: straight-line distance and the elevations at both ends.
    public var distanceMeters: Double
    public var fromElevation: Double
    public var toElevation: Double
    /// The ways on either side (the lift or piste that needs the link first).
    public var fromWayID: Int64
    public var toWayID: Int64

    /// The manifest row accepting this proposal under `id`.
    public func connector(id: Int64) -> CanonicalConnector {
        CanonicalConnector(connectorID: id, fromOSMNodeID: fromOSMNodeID, toOSMNodeID: toOSMNodeID, bidirectional: bidirectional)
    }

    public var description: String {
        "\(kind.rawValue) n\(fromOSMNodeID) (way \(fromWayID), \(fromElevation) m) → n\(toOSMNodeID) (way \(toWayID), \(toElevation) m): \(distanceMeters) m"
            + (bidirectional ? ", both ways" : "")
    }
}
