/// The structural half of ingress validation, shared by the builder (which
/// refuses to emit a graph that fails it) and the wire decoder (which refuses
/// to accept one): node and edge identity, endpoint geometry, numeric ranges,
/// lift queue-entry semantics, identity chains and rendezvous anchors.
enum GraphValidator {
    static func problems(in graph: MountainGraph) -> [GraphProblem] {
        var problems: [GraphProblem] = []
        func fail(_ subject: String, _ message: String) { problems.append(GraphProblem(subject: subject, message: message)) }

        // Nodes and edges are held sorted by id, so duplicates are neighbours.
        for (previous, node) in zip(graph.nodes, graph.nodes.dropFirst()) where previous.id == node.id {
            fail("node \(node.id)", "id is not unique")
        }
        for (previous, edge) in zip(graph.edges, graph.edges.dropFirst()) where previous.id == edge.id {
            fail("edge \(edge.id)", "id is not unique")
        }
        for node in graph.nodes {
            let subject = "node \(node.id)"
            if !isNodeID(node.id) { fail(subject, "id does not match n<digits>") }
            if !(node.lat.isFinite && (-90...90).contains(node.lat)) { fail(subject, "latitude \(node.lat) outside −90…90") }
            if !(node.lon.isFinite && (-180...180).contains(node.lon)) { fail(subject, "longitude \(node.lon) outside −180…180") }
            if !(node.elevation.isFinite && (-500...9000).contains(node.elevation)) { fail(subject, "elevation \(node.elevation) outside −500…9000") }
        }

        var liftChains: [String: [GraphEdge]] = [:]
        for edge in graph.edges {
            let subject = "edge \(edge.id)"
            if let prefix = edgeIDPrefix(edge.id) {
                if prefix != edge.kind.idPrefix { fail(subject, "id prefix '\(prefix)' does not match kind \(edge.kind.rawValue)") }
            } else {
                fail(subject, "id does not match ^[tlc](\\d+)(?:_s(\\d+))?(_r)?$")
            }
            if edge.sourceID == edge.targetID { fail(subject, "source and target are the same node") }
            let source = graph.node(id: edge.sourceID)
            let target = graph.node(id: edge.targetID)
            if source == nil { fail(subject, "source \(edge.sourceID) is not a node") }
            if target == nil { fail(subject, "target \(edge.targetID) is not a node") }
            if edge.geometry.count < 2 {
                fail(subject, "geometry has \(edge.geometry.count) point(s); at least 2 are required")
            } else {
                if let source, edge.geometry[0] != source.coordinate {
                    fail(subject, "first geometry point is not the source node's coordinate")
                }
                if let target, edge.geometry[edge.geometry.count - 1] != target.coordinate {
                    fail(subject, "last geometry point is not the target node's coordinate")
                }
            }
            for point in edge.geometry where !(point.lat.isFinite && point.lon.isFinite
                                               && (-90...90).contains(point.lat) && (-180...180).contains(point.lon)) {
                fail(subject, "geometry point (\(point.lat), \(point.lon)) is outside the globe")
                break
            }
            checkRanges(edge, fail: fail)
            if edge.kind == .lift {
                let chainKey = (edge.attributes.identityKey ?? "way \(edge.attributes.sourceWayId)")
                    + (edge.isReverseTwin ? " (reverse)" : "")
                liftChains[chainKey, default: []].append(edge)
            }
        }

        for (key, chain) in liftChains.sorted(by: { utf8Less($0.key, $1.key) }) {
            checkLiftChain(key, chain, fail: fail)
        }

        var edgesByID: [String: GraphEdge] = [:]
        if !graph.identities.isEmpty {
            for edge in graph.edges { edgesByID[edge.id] = edge }
        }
        for identity in graph.identities {
            for chain in identity.chains {
                for (position, id) in chain.enumerated() {
                    guard let edge = edgesByID[id] else {
                        fail("identity \(identity.key)", "chain names edge \(id), which does not exist"); continue
                    }
                    if edge.attributes.identityKey != identity.key || edge.attributes.chainIndex != position {
                        fail("identity \(identity.key)", "edge \(id) does not carry this identity at chain index \(position)")
                    }
                    if position > 0, let previous = edgesByID[chain[position - 1]], previous.targetID != edge.sourceID {
                        fail("identity \(identity.key)", "chain breaks between \(previous.id) and \(id)")
                    }
                }
            }
        }

        var rendezvousIDs: Set<String> = []
        for point in graph.rendezvousPoints {
            let subject = "rendezvous \(point.id)"
            if !rendezvousIDs.insert(point.id).inserted { fail(subject, "id is not unique") }
            if graph.node(id: point.nodeId) == nil { fail(subject, "node \(point.nodeId) does not exist") }
            if point.id.dropFirst(2) != point.nodeId.dropFirst(1) || !point.id.hasPrefix("rp") {
                fail(subject, "id does not name its anchor node \(point.nodeId)")
            }
            if !(point.confidence.isFinite && (0...1).contains(point.confidence)) { fail(subject, "confidence \(point.confidence) outside 0…1") }
            if !(point.quality.isFinite && (0...1).contains(point.quality)) { fail(subject, "quality \(point.quality) outside 0…1") }
        }
        return problems
    }

    private static func checkRanges(_ edge: GraphEdge, fail: (String, String) -> Void) {
        let subject = "edge \(edge.id)"
        let a = edge.attributes
        func inRange(_ name: String, _ value: Double?, _ range: ClosedRange<Double>, lowerOpen: Bool = false) {
            guard let value else { return }
            if !value.isFinite || !range.contains(value) || (lowerOpen && value == range.lowerBound) {
                fail(subject, "\(name) \(value) outside \(lowerOpen ? "(" : "[")\(range.lowerBound), \(range.upperBound)]")
            }
        }
        inRange("lengthMeters", a.lengthMeters, 0...50_000, lowerOpen: true)
        inRange("verticalDrop", a.verticalDrop, 0...5000)
        inRange("averageGradient", a.averageGradient, 0...60)
        inRange("maxGradient", a.maxGradient, 0...60)
        inRange("aspectVariance", a.aspectVariance, 0...1)
        inRange("midpointElevation", a.midpointElevation, -500...9000)
        if let aspect = a.aspect, !(aspect.isFinite && aspect >= 0 && aspect < 360) {
            fail(subject, "aspect \(aspect) outside [0, 360)")
        }
        if let capacity = a.liftCapacity, !(0...65535).contains(capacity) {
            fail(subject, "liftCapacity \(capacity) outside 0…65535")
        }
        if a.waitTimeMinutes != nil { fail(subject, "waitTimeMinutes must be null in a built graph (waits come from status)") }
        if a.segmentIndex < 1 { fail(subject, "segmentIndex \(a.segmentIndex) must be ≥ 1") }
        if let chainIndex = a.chainIndex, chainIndex < 0 { fail(subject, "chainIndex \(chainIndex) must be ≥ 0") }
        if a.sourceWayId.isEmpty || !a.sourceWayId.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            fail(subject, "sourceWayId '\(a.sourceWayId)' is not a way id")
        } else if let digits = edgeIDWayDigits(edge.id), digits != a.sourceWayId {
            fail(subject, "sourceWayId \(a.sourceWayId) does not match the id")
        }
        for value in [a.estimatedTrailWidthMeters, a.obstacleDensity, a.fallLineExposure, a.lastGroomedHoursAgo] {
            if let value, !value.isFinite { fail(subject, "an optional attribute is not finite") }
        }
        if edge.kind == .lift {
            if a.liftType == nil { fail(subject, "lift edge has no liftType") }
            guard let ride = a.rideTimeSeconds else { return fail(subject, "lift edge has no rideTimeSeconds") }
            inRange("rideTimeSeconds", ride, 0...7200, lowerOpen: true)
            if a.difficulty != nil { fail(subject, "difficulty on a lift edge") }
        } else {
            if a.liftType != nil { fail(subject, "liftType on a \(edge.kind.rawValue) edge") }
            if a.rideTimeSeconds != nil { fail(subject, "rideTimeSeconds on a \(edge.kind.rawValue) edge") }
            if a.liftCapacity != nil { fail(subject, "liftCapacity on a \(edge.kind.rawValue) edge") }
            if a.queueEntry { fail(subject, "queueEntry on a \(edge.kind.rawValue) edge") }
        }
        if edge.kind != .run, a.aspect != nil { fail(subject, "aspect on a \(edge.kind.rawValue) edge") }
    }

    /// Each directed lift chain: chain indices 0…n−1 along a connected path,
    /// exactly one queue entry, at index 0.
    private static func checkLiftChain(_ key: String, _ chain: [GraphEdge], fail: (String, String) -> Void) {
        let subject = "lift chain \(key)"
        guard chain.allSatisfy({ $0.attributes.chainIndex != nil }) else {
            return fail(subject, "a lift edge has no chainIndex")
        }
        let ordered = chain.sorted { $0.attributes.chainIndex! < $1.attributes.chainIndex! }
        for (position, edge) in ordered.enumerated() where edge.attributes.chainIndex != position {
            return fail(subject, "chain indices are not 0…\(chain.count - 1) (edge \(edge.id) has \(edge.attributes.chainIndex!))")
        }
        let entries = ordered.filter(\.attributes.queueEntry)
        if entries.count != 1 || entries.first?.attributes.chainIndex != 0 {
            fail(subject, "must have exactly one queueEntry edge, at chainIndex 0 (has \(entries.count))")
        }
        for (previous, next) in zip(ordered, ordered.dropFirst()) where previous.targetID != next.sourceID {
            fail(subject, "chain breaks between \(previous.id) and \(next.id)")
        }
    }

    static func isNodeID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        return bytes.count >= 2 && bytes[0] == UInt8(ascii: "n") && bytes.dropFirst().allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// The prefix letter if `id` matches `^[tlc](\d+)(?:_s(\d+))?(_r)?$`.
    static func edgeIDPrefix(_ id: String) -> String? {
        guard edgeIDWayDigits(id) != nil else { return nil }
        return String(id.prefix(1))
    }

    /// The way-id digits of a well-formed edge id.
    static func edgeIDWayDigits(_ id: String) -> String? {
        var bytes = Array(id.utf8)[...]
        guard let prefix = bytes.first, [UInt8(ascii: "t"), UInt8(ascii: "l"), UInt8(ascii: "c")].contains(prefix) else { return nil }
        bytes = bytes.dropFirst()
        func digits() -> ArraySlice<UInt8>? {
            let run = bytes.prefix { $0 >= 48 && $0 <= 57 }
            guard !run.isEmpty else { return nil }
            bytes = bytes.dropFirst(run.count)
            return run
        }
        guard let way = digits() else { return nil }
        if bytes.starts(with: Array("_s".utf8)) {
            bytes = bytes.dropFirst(2)
            guard digits() != nil else { return nil }
        }
        if bytes.elementsEqual(Array("_r".utf8)) { bytes = bytes.dropFirst(2) }
        guard bytes.isEmpty else { return nil }
        return String(decoding: way, as: UTF8.self)
    }
}
