/// A connector the review step suggests, with the evidence an operator needs
/// to accept or reject it. Proposals never reach a graph by themselves.
public struct ConnectorProposal: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// Lift top → a piste vertex close by: skiers leave the lift onto a run.
        case liftExit
        /// Piste vertex → lift base: skiers reach the lift queue.
        case liftEntry
        /// Lift top → another lift's base close by: a transfer on foot.
        case liftTransfer
        /// Two lift stations side by side (bases or tops), both ways.
        case stationLink
        /// A run that stops short of another run (a T-junction or near miss)
        /// flows on into it.
        case runEnd
        /// A run that starts beside another run is entered from it.
        case runHead
        /// Two pistes drawn across each other without a shared vertex.
        case crossing
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

/// How far the review step looks for each kind of connector. Proposals only
/// ever join two existing vertices; nothing beyond these limits is suggested.
public struct ConnectorLimits: Sendable, Equatable {
    /// Lift station ↔ piste vertex, and station ↔ station: a station building,
    /// its ramp and the flat around it are rarely mapped, and 60 m covers them.
    public var station: Double = 100
    /// Run end or head ↔ another run: a near miss or an unmapped T-junction.
    public var runGap: Double = 80
    /// A run end or head with no run within `runGap`, or a lift station with
    /// none within `station`, looks this far for the nearest one: a run
    /// mapped as stopping on open slope, a carpet on an unmapped nursery slope.
    public var farRunGap: Double = 200
    /// The two vertices on either side of where two pistes cross.
    public var crossing: Double = 40
    /// How far above its start a connector may lead (a short skate or side-step).
    public var climb: Double = 15
    /// The most runs one lift station is joined to.
    public var runsPerStation = 4
    /// The most runs one run end or head is joined to.
    public var runsPerEnd = 2

    public init() {}
}
