extension BuildRun {
    /// The manifest's reviewed connectors as connection ways between their two
    /// vertices. Invalid rows are recorded as failures and left out.
    mutating func reviewedConnectorWays() -> [RoutableWay] {
        guard let connectors = manifest?.connectors, !connectors.isEmpty else { return [] }
        let osmWayIDs = Set(osm.ways.map(\.id))
        var seen: Set<Int64> = []
        var ways: [RoutableWay] = []
        for connector in connectors.sorted(by: { $0.connectorID < $1.connectorID }) {
            let name = "connector:\(connector.connectorID)"
            if connector.connectorID <= 0 || osmWayIDs.contains(connector.connectorID) {
                failures.append(BuildFailure(code: .manifestUnreadable, identity: name,
                                         message: "connector id \(connector.connectorID) is not positive or collides with an OSM way id: use ids from \(CanonicalConnector.reviewedIDBase) up"))
                continue
            }
            guard seen.insert(connector.connectorID).inserted else {
                failures.append(BuildFailure(code: .manifestUnreadable, identity: name, message: "connector id is listed twice"))
                continue
            }
            let missing = [connector.fromOSMNodeID, connector.toOSMNodeID].filter { osm.nodes[$0] == nil }
            guard missing.isEmpty, connector.fromOSMNodeID != connector.toOSMNodeID else {
                failures.append(BuildFailure(
                    code: .missingIdentity, identity: name,
                    message: missing.isEmpty ? "connector joins a vertex to itself"
                        : "vertex \(missing.map(String.init).joined(separator: ", ")) is not in the OSM snapshot: review the connector again against this snapshot"))
                continue
            }
            var tags = ["piste:type": "connection"]
            if !connector.bidirectional { tags["oneway"] = "yes" }
            ways.append(RoutableWay(id: connector.connectorID, kind: .traverse, tags: tags,
                                    vertices: [connector.fromOSMNodeID, connector.toOSMNodeID], liftType: nil))
        }
        return ways
    }

}
