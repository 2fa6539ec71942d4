/// Reads the v15 JSON shape into a graph, naming the path of anything missing
/// or of the wrong type.
enum WireDecoder {
    static func graph(from document: JSONValue) throws(IngressError) -> (MountainGraph, String) {
        let root = try object(document, "document")
        let resortID = try string(root, "resortID", "document")
        let graphVersion = try string(root, "graphVersion", "document")
        let manifestVersion = try integer(root, "manifestVersion", "document")
        let snapshotDate = try string(root, "snapshotDate", "document")
        let fingerprint = try string(root, "fingerprint", "document")

        var nodes: [GraphNode] = []
        for (key, value) in try object(member(root, "nodes", "document"), "nodes") {
            let path = "nodes.\(key)"
            let node = try object(value, path)
            let id = try string(node, "id", path)
            guard id == key else { throw .schema("\(path): key does not equal the node's id '\(id)'") }
            let kindName = try string(node, "kind", path)
            guard let kind = NodeKind(rawValue: kindName) else { throw .schema("\(path).kind: unknown node kind '\(kindName)'") }
            nodes.append(GraphNode(id: id, lat: try number(node, "lat", path), lon: try number(node, "lon", path),
                                   elevation: try number(node, "elevation", path), kind: kind))
        }

        var edges: [GraphEdge] = []
        for (position, value) in try array(member(root, "edges", "document"), "edges").enumerated() {
            edges.append(try edge(value, path: "edges[\(position)]"))
        }

        var identities: [GraphIdentity] = []
        for (position, value) in try array(member(root, "identities", "document"), "identities").enumerated() {
            let path = "identities[\(position)]"
            let identity = try object(value, path)
            let kindName = try string(identity, "kind", path)
            guard let kind = GraphIdentity.Kind(rawValue: kindName) else { throw .schema("\(path).kind: unknown identity kind '\(kindName)'") }
            var chains: [[String]] = []
            for (index, chain) in try array(member(identity, "chains", path), "\(path).chains").enumerated() {
                chains.append(try array(chain, "\(path).chains[\(index)]").map { (value: JSONValue) throws(IngressError) -> String in
                    guard case .string(let id) = value else { throw .schema("\(path).chains[\(index)]: expected edge id strings") }
                    return id
                })
            }
            let wayIDs = try array(member(identity, "wayIds", path), "\(path).wayIds").map { (value: JSONValue) throws(IngressError) -> Int64 in
                guard case .string(let text) = value, let id = Int64(text) else { throw .schema("\(path).wayIds: expected way id strings") }
                return id
            }
            identities.append(GraphIdentity(kind: kind, name: try string(identity, "name", path), wayIDs: wayIDs, chains: chains))
        }

        var points: [RendezvousPoint] = []
        for (position, value) in try array(member(root, "rendezvousPoints", "document"), "rendezvousPoints").enumerated() {
            let path = "rendezvousPoints[\(position)]"
            let point = try object(value, path)
            let kindName = try string(point, "kind", path)
            guard let kind = RendezvousPoint.Kind(rawValue: kindName) else { throw .schema("\(path).kind: unknown rendezvous kind '\(kindName)'") }
            points.append(RendezvousPoint(
                id: try string(point, "id", path), nodeId: try string(point, "nodeId", path), kind: kind,
                displayName: try string(point, "displayName", path),
                confidence: try number(point, "confidence", path), quality: try number(point, "quality", path)))
        }

        let graph = MountainGraph(resortID: resortID, manifestVersion: manifestVersion, snapshotDate: snapshotDate,
                                  graphVersion: graphVersion, nodes: nodes, edges: edges,
                                  identities: identities, rendezvousPoints: points)
        return (graph, fingerprint)
    }

    private static func edge(_ value: JSONValue, path: String) throws(IngressError) -> GraphEdge {
        let edge = try object(value, path)
        let id = try string(edge, "id", path)
        let kindName = try string(edge, "kind", path)
        guard let kind = EdgeKind(rawValue: kindName) else { throw .schema("\(path).kind: unknown edge kind '\(kindName)'") }
        var geometry: [Coordinate] = []
        for pair in try array(member(edge, "geometryPairs", path), "\(path).geometryPairs") {
            guard case .array(let values) = pair, values.count == 2,
                  case .number(let lon) = values[0], case .number(let lat) = values[1] else {
                throw .schema("\(path).geometryPairs: expected [lon, lat] number pairs")
            }
            geometry.append(Coordinate(lat: lat, lon: lon))
        }
        let attributesPath = "\(path).attributes"
        let raw = try object(member(edge, "attributes", path), attributesPath)
        var a = EdgeAttributes()
        if let name = try optionalString(raw, "difficulty", attributesPath) {
            guard let difficulty = RunDifficulty(wireName: name) else { throw .schema("\(attributesPath).difficulty: unknown difficulty '\(name)'") }
            a.difficulty = difficulty
        }
        a.lengthMeters = try number(raw, "lengthMeters", attributesPath)
        a.verticalDrop = try number(raw, "verticalDrop", attributesPath)
        a.averageGradient = try number(raw, "averageGradient", attributesPath)
        a.maxGradient = try number(raw, "maxGradient", attributesPath)
        a.aspect = try optionalNumber(raw, "aspect", attributesPath)
        a.aspectVariance = try number(raw, "aspectVariance", attributesPath)
        a.trailName = try optionalString(raw, "trailName", attributesPath)
        a.hasMoguls = try bool(raw, "hasMoguls", attributesPath)
        a.isGladed = try bool(raw, "isGladed", attributesPath)
        a.isGroomed = try optionalBool(raw, "isGroomed", attributesPath)
        if let type = try optionalString(raw, "liftType", attributesPath) {
            guard let liftType = LiftType(rawValue: type) else { throw .schema("\(attributesPath).liftType: unknown lift type '\(type)'") }
            a.liftType = liftType
        }
        a.liftCapacity = try optionalInteger(raw, "liftCapacity", attributesPath)
        a.rideTimeSeconds = try optionalNumber(raw, "rideTimeSeconds", attributesPath)
        a.waitTimeMinutes = try optionalNumber(raw, "waitTimeMinutes", attributesPath)
        a.isOpen = try bool(raw, "isOpen", attributesPath)
        a.isOfficiallyValidated = try bool(raw, "isOfficiallyValidated", attributesPath)
        a.trailGroupId = try string(raw, "trailGroupId", attributesPath)
        a.midpointElevation = try number(raw, "midpointElevation", attributesPath)
        a.estimatedTrailWidthMeters = try optionalNumber(raw, "estimatedTrailWidthMeters", attributesPath)
        a.obstacleDensity = try optionalNumber(raw, "obstacleDensity", attributesPath)
        a.fallLineExposure = try optionalNumber(raw, "fallLineExposure", attributesPath)
        a.lastGroomedHoursAgo = try optionalNumber(raw, "lastGroomedHoursAgo", attributesPath)
        a.estimatedSurfaceCondition = try optionalString(raw, "estimatedSurfaceCondition", attributesPath)
        a.nightGroomedFlag = try bool(raw, "nightGroomedFlag", attributesPath)
        a.identityKey = try optionalString(raw, "identityKey", attributesPath)
        a.sourceWayId = try string(raw, "sourceWayId", attributesPath)
        a.segmentIndex = try integer(raw, "segmentIndex", attributesPath)
        let directionName = try string(raw, "direction", attributesPath)
        guard let direction = EdgeDirection(rawValue: directionName) else { throw .schema("\(attributesPath).direction: '\(directionName)' is not forward or reverse") }
        a.direction = direction
        a.chainIndex = try optionalInteger(raw, "chainIndex", attributesPath)
        a.queueEntry = try bool(raw, "queueEntry", attributesPath)
        return GraphEdge(id: id, sourceID: try string(edge, "sourceID", path), targetID: try string(edge, "targetID", path),
                         kind: kind, geometry: geometry, attributes: a)
    }

    // MARK: - Typed access

    typealias Members = [(String, JSONValue)]

    static func object(_ value: JSONValue, _ path: String) throws(IngressError) -> Members {
        guard case .object(let members) = value else { throw .schema("\(path): expected an object") }
        return members
    }

    static func array(_ value: JSONValue, _ path: String) throws(IngressError) -> [JSONValue] {
        guard case .array(let elements) = value else { throw .schema("\(path): expected an array") }
        return elements
    }

    static func member(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> JSONValue {
        guard let value = members.first(where: { $0.0 == key })?.1 else { throw .schema("\(path): missing \"\(key)\"") }
        return value
    }

    static func string(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> String {
        guard case .string(let value) = try member(members, key, path) else { throw .schema("\(path).\(key): expected a string") }
        return value
    }

    static func optionalString(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> String? {
        switch try member(members, key, path) {
        case .null: return nil
        case .string(let value): return value
        default: throw .schema("\(path).\(key): expected a string or null")
        }
    }

    static func number(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> Double {
        guard case .number(let value) = try member(members, key, path) else { throw .schema("\(path).\(key): expected a number") }
        return value
    }

    static func optionalNumber(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> Double? {
        switch try member(members, key, path) {
        case .null: return nil
        case .number(let value): return value
        default: throw .schema("\(path).\(key): expected a number or null")
        }
    }

    static func integer(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> Int {
        guard let value = try optionalInteger(members, key, path) else { throw .schema("\(path).\(key): expected an integer") }
        return value
    }

    static func optionalInteger(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> Int? {
        guard let value = try optionalNumber(members, key, path) else { return nil }
        guard value == value.rounded(), abs(value) < 9_007_199_254_740_992 else { throw .schema("\(path).\(key): expected an integer") }
        return Int(value)
    }

    static func bool(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> Bool {
        guard case .bool(let value) = try member(members, key, path) else { throw .schema("\(path).\(key): expected true or false") }
        return value
    }

    static func optionalBool(_ members: Members, _ key: String, _ path: String) throws(IngressError) -> Bool? {
        switch try member(members, key, path) {
        case .null: return nil
        case .bool(let value): return value
        default: throw .schema("\(path).\(key): expected true, false or null")
        }
    }
}
