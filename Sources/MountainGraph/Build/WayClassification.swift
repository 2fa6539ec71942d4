/// A way the graph is built from, with its resolved vertex list.
struct RoutableWay {
    let id: Int64
    let kind: EdgeKind
    let tags: [String: String]
    /// Vertex ids present in the snapshot, consecutive repeats removed.
    let vertices: [Int64]
    let liftType: LiftType?

    /// Name used for claiming: runs `name` or `piste:name`, lifts `name`.
    var claimNames: [String] {
        switch kind {
        case .lift: return [tags["name"]].compactMap { $0 }
        case .run, .traverse: return [tags["name"], tags["piste:name"]].compactMap { $0 }
        }
    }

    /// Display name: `piste:name` else `name` for pistes, `name` for lifts.
    var displayName: String? {
        switch kind {
        case .lift: return tags["name"]
        case .run, .traverse: return tags["piste:name"] ?? tags["name"]
        }
    }
}

/// Why a way tagged as a piste or lift is not part of the graph.
enum WayExclusion: Equatable {
    case area
    case access(String)
    case degenerate
    case notRoutable(String)

    var explanation: String {
        switch self {
        case .area: return "is a ski-area footprint (area=yes), not a route"
        case .access(let value): return "is excluded by access \(value)"
        case .degenerate: return "has fewer than two vertices in the snapshot"
        case .notRoutable(let why): return "is not routable (\(why))"
        }
    }
}

enum WayClassification {
    /// Sorts every way into routable (by kind) or excluded (with the reason),
    /// by the v15 tag rules.
    static func classify(_ osm: OSMData) -> (routable: [RoutableWay], excluded: [Int64: WayExclusion]) {
        var routable: [RoutableWay] = []
        var excluded: [Int64: WayExclusion] = [:]
        for way in osm.ways {
            let tags = way.tags
            let kind: EdgeKind
            var liftType: LiftType?
            if let aerialway = tags["aerialway"] {
                if LiftType.nonRoutableAerialways.contains(aerialway) {
                    excluded[way.id] = .notRoutable("aerialway=\(aerialway)")
                    continue
                }
                kind = .lift
                liftType = LiftType(tag: aerialway)
            } else if let piste = tags["piste:type"] {
                switch piste {
                case "downhill": kind = .run
                case "connection": kind = .traverse
                default:
                    excluded[way.id] = .notRoutable("piste:type=\(piste)")
                    continue
                }
            } else {
                excluded[way.id] = .notRoutable("neither piste:type nor aerialway")
                continue
            }
            if tags["area"] == "yes" {
                excluded[way.id] = .area
                continue
            }
            // Effective access: the ski-specific tag when present, else access.
            let accessKey = tags["ski"] != nil ? "ski" : "access"
            if let access = tags[accessKey], access == "private" || access == "no" {
                excluded[way.id] = .access("\(accessKey)=\(access)")
                continue
            }
            var vertices: [Int64] = []
            vertices.reserveCapacity(way.nodeIDs.count)
            for id in way.nodeIDs where osm.nodes[id] != nil && vertices.last != id {
                vertices.append(id)
            }
            guard vertices.count >= 2, Set(vertices).count >= 2 else {
                excluded[way.id] = .degenerate
                continue
            }
            routable.append(RoutableWay(id: way.id, kind: kind, tags: tags, vertices: vertices, liftType: liftType))
        }
        return (routable, excluded)
    }
}
