/// A rendezvous point the review step suggests, with where it came from.
public struct RendezvousProposal: Sendable, Equatable {
    public enum Source: String, Sendable, CaseIterable {
        /// A lift's base or top station (the places skiers already name).
        case liftStation
        /// A named `aerialway=station` vertex on the graph.
        case namedStation
        /// A node where three or more runs meet.
        case junction
        /// A hut, restaurant or café tagged in the extract, anchored on the
        /// nearest graph node.
        case amenity
    }

    public var point: CanonicalRendezvousPoint
    public var source: Source
    /// What the proposal rests on, in words.
    public var evidence: String
}

/// The review step's rendezvous proposals, from a graph built with the
/// proposed identities and connectors: every lift station (a lodge where most
/// lifts start), named stations, junctions of three or more runs at least
/// `junctionSpacing` metres from any other proposal, and the extract's huts
/// and restaurants within `amenityReach` of a node. Anchors already in the
/// overlay are left out.
public enum RendezvousReview {
    public static let junctionSpacing = 150.0
    public static let amenityReach = 150.0

    public static func propose(for graph: MountainGraph, osm: OSMData? = nil,
                               existing: [CanonicalRendezvousPoint] = []) -> [RendezvousProposal] {
        var proposals = stations(for: graph)
        var taken = Set(existing.map(\.anchorOSMNodeID))
        proposals.removeAll { !taken.insert($0.point.anchorOSMNodeID).inserted }
        func node(_ anchor: Int64) -> GraphNode? { graph.node(id: "n\(anchor)") }
        var placed = proposals.compactMap { node($0.point.anchorOSMNodeID)?.coordinate } + existing.compactMap { node($0.anchorOSMNodeID)?.coordinate }

        if let osm {
            for vertex in graph.nodes {
                guard let anchor = Int64(vertex.id.dropFirst()), let tags = osm.nodes[anchor]?.tags,
                      tags["aerialway"] == "station", let name = tags["name"], !taken.contains(anchor) else { continue }
                taken.insert(anchor)
                placed.append(vertex.coordinate)
                proposals.append(RendezvousProposal(
                    point: CanonicalRendezvousPoint(anchorOSMNodeID: anchor, kind: .midStation, displayName: name, confidence: 0.8, quality: 0.7),
                    source: .namedStation, evidence: "aerialway=station named \"\(name)\""))
            }
            for amenity in amenities(osm) {
                let nearest = graph.nodes.map { ($0, Geo.distance($0.coordinate, amenity.coordinate)) }
                    .filter { $0.1 <= amenityReach }
                    .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.id.utf8.lexicographicallyPrecedes($1.0.id.utf8) }
                guard let (vertex, distance) = nearest, let anchor = Int64(vertex.id.dropFirst()), taken.insert(anchor).inserted else { continue }
                placed.append(vertex.coordinate)
                proposals.append(RendezvousProposal(
                    point: CanonicalRendezvousPoint(anchorOSMNodeID: anchor, kind: amenity.kind, displayName: amenity.name, confidence: 0.7, quality: 0.9),
                    source: .amenity, evidence: "\(amenity.tag) \"\(amenity.name)\" \(Int(distance.rounded())) m from the node"))
            }
        }

        // Junctions of three or more runs, spaced out so a busy area is not all rendezvous points.
        var runsAt: [String: Set<String>] = [:]
        var namesAt: [String: Set<String>] = [:]
        for edge in graph.edges where edge.kind == .run {
            for id in [edge.sourceID, edge.targetID] {
                runsAt[id, default: []].insert(edge.attributes.trailGroupId)
                if let name = edge.attributes.trailName { namesAt[id, default: []].insert(name) }
            }
        }
        for vertex in graph.nodes {
            guard let runs = runsAt[vertex.id], runs.count >= 3, let anchor = Int64(vertex.id.dropFirst()), !taken.contains(anchor),
                  placed.allSatisfy({ Geo.distance($0, vertex.coordinate) >= junctionSpacing }) else { continue }
            taken.insert(anchor)
            placed.append(vertex.coordinate)
            let names = (namesAt[vertex.id] ?? []).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            let display = names.isEmpty ? "Junction (n\(anchor))" : "Junction of " + names.prefix(3).joined(separator: ", ")
            proposals.append(RendezvousProposal(
                point: CanonicalRendezvousPoint(anchorOSMNodeID: anchor, kind: .landmark, displayName: display, confidence: 0.6, quality: 0.5),
                source: .junction, evidence: "\(runs.count) runs meet here"))
        }
        return proposals.sorted { $0.point.anchorOSMNodeID < $1.point.anchorOSMNodeID }
    }

    /// Every lift's base and top station, and a lodge at the base where most lifts start.
    public static func stations(for graph: MountainGraph) -> [RendezvousProposal] {
        var baseOf: [String: String] = [:] // node id → lift name
        var topOf: [String: String] = [:]
        var liftsStartingAt: [String: Int] = [:]
        for identity in graph.identities where identity.kind == .lift {
            guard let chain = identity.chains.first, let first = chain.first, let last = chain.last,
                  let head = graph.edges.first(where: { $0.id == first }), let tail = graph.edges.first(where: { $0.id == last }) else { continue }
            baseOf[head.sourceID] = baseOf[head.sourceID] ?? identity.name
            topOf[tail.targetID] = topOf[tail.targetID] ?? identity.name
            liftsStartingAt[head.sourceID, default: 0] += 1
        }
        // Unclaimed lifts: each way's chain start and end, by chain index.
        var chains: [String: [GraphEdge]] = [:]
        for edge in graph.edges where edge.kind == .lift && edge.attributes.identityKey == nil && !edge.isReverseTwin {
            chains[edge.attributes.sourceWayId, default: []].append(edge)
        }
        for way in chains.keys.sorted() {
            let edges = chains[way]!.sorted { ($0.attributes.chainIndex ?? 0) < ($1.attributes.chainIndex ?? 0) }
            let name = edges[0].attributes.trailName ?? "lift \(way)"
            baseOf[edges[0].sourceID] = baseOf[edges[0].sourceID] ?? name
            topOf[edges[edges.count - 1].targetID] = topOf[edges[edges.count - 1].targetID] ?? name
            liftsStartingAt[edges[0].sourceID, default: 0] += 1
        }
        let hub = liftsStartingAt.max { a, b in a.value != b.value ? a.value < b.value : a.key.utf8.lexicographicallyPrecedes(b.key.utf8) == false }?.key

        var rows: [RendezvousProposal] = []
        for nodeID in Set(baseOf.keys).union(topOf.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let id = Int64(nodeID.dropFirst()) else { continue }
            if nodeID == hub, (liftsStartingAt[nodeID] ?? 0) >= 2 {
                rows.append(RendezvousProposal(
                    point: CanonicalRendezvousPoint(anchorOSMNodeID: id, kind: .lodge, displayName: "Base lodge (\(baseOf[nodeID]!))",
                                                    confidence: 0.9, quality: 0.9),
                    source: .liftStation, evidence: "\(liftsStartingAt[nodeID]!) lifts start here"))
            } else if let lift = baseOf[nodeID] {
                rows.append(RendezvousProposal(
                    point: CanonicalRendezvousPoint(anchorOSMNodeID: id, kind: .liftBase, displayName: "\(lift) base", confidence: 0.8, quality: 0.7),
                    source: .liftStation, evidence: "base station of \(lift)"))
            } else if let lift = topOf[nodeID] {
                rows.append(RendezvousProposal(
                    point: CanonicalRendezvousPoint(anchorOSMNodeID: id, kind: .liftTop, displayName: "\(lift) top", confidence: 0.8, quality: 0.6),
                    source: .liftStation, evidence: "top station of \(lift)"))
            }
        }
        return rows
    }

    struct Amenity {
        var coordinate: Coordinate
        var name: String
        var kind: RendezvousPoint.Kind
        var tag: String
    }

    /// Named huts, restaurants and cafés among the extract's nodes, by id.
    static func amenities(_ osm: OSMData) -> [Amenity] {
        let eateries: Set<String> = ["restaurant", "cafe", "bar", "pub", "fast_food", "food_court"]
        let huts: Set<String> = ["alpine_hut", "wilderness_hut", "chalet"]
        var found: [(Int64, Amenity)] = []
        for (id, node) in osm.nodes where !node.tags.isEmpty {
            guard let name = node.tags["name"] else { continue }
            let coordinate = Coordinate(lat: node.lat, lon: node.lon)
            if let amenity = node.tags["amenity"], eateries.contains(amenity) {
                found.append((id, Amenity(coordinate: coordinate, name: name, kind: .restaurant, tag: "amenity=\(amenity)")))
            } else if let tourism = node.tags["tourism"], huts.contains(tourism) {
                found.append((id, Amenity(coordinate: coordinate, name: name, kind: .lodge, tag: "tourism=\(tourism)")))
            }
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
