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

/// A routable way that references vertices the snapshot does not hold: a
/// source defect. It fails the build rather than being silently repaired
/// (a repaired lift would publish with its top station moved to a pylon).
struct MissingVertices: Equatable {
    let wayID: Int64
    let nodeIDs: [Int64]
}

enum WayClassification {
    struct Classified {
        var routable: [RoutableWay] = []
        var excluded: [Int64: WayExclusion] = [:]
        var missingVertices: [MissingVertices] = []
        /// Lift ways whose drawing loops (a bullwheel, a station outline)
        /// were cut back to the line from base to top.
        var trimmedLiftLoops: [Int64] = []
    }

    /// Sorts every way into routable (by kind) or excluded (with the reason),
    /// by the v15 tag rules.
    static func classify(_ osm: OSMData) -> Classified {
        var result = Classified()
        for way in osm.ways {
            let tags = way.tags
            let kind: EdgeKind
            var liftType: LiftType?
            if let aerialway = tags["aerialway"] {
                if LiftType.nonRoutableAerialways.contains(aerialway) {
                    result.excluded[way.id] = .notRoutable("aerialway=\(aerialway)")
                    continue
                }
                kind = .lift
                liftType = LiftType(tag: aerialway)
            } else if let piste = tags["piste:type"] {
                switch piste {
                case "downhill": kind = .run
                case "connection": kind = .traverse
                default:
                    result.excluded[way.id] = .notRoutable("piste:type=\(piste)")
                    continue
                }
            } else {
                result.excluded[way.id] = .notRoutable("neither piste:type nor aerialway")
                continue
            }
            if tags["area"] == "yes" {
                result.excluded[way.id] = .area
                continue
            }
            // Effective access: the ski-specific tag when present, else access.
            let accessKey = tags["ski"] != nil ? "ski" : "access"
            if let access = tags[accessKey], access == "private" || access == "no" {
                result.excluded[way.id] = .access("\(accessKey)=\(access)")
                continue
            }
            let missing = way.nodeIDs.filter { osm.nodes[$0] == nil }
            if !missing.isEmpty {
                result.missingVertices.append(MissingVertices(wayID: way.id, nodeIDs: Array(Set(missing)).sorted()))
                continue
            }
            var vertices: [Int64] = []
            vertices.reserveCapacity(way.nodeIDs.count)
            for id in way.nodeIDs where vertices.last != id { vertices.append(id) }
            if kind == .lift, Set(vertices).count < vertices.count {
                vertices = liftLine(vertices)
                result.trimmedLiftLoops.append(way.id)
            }
            guard vertices.count >= 2, Set(vertices).count >= 2 else {
                result.excluded[way.id] = .degenerate
                continue
            }
            result.routable.append(RoutableWay(id: way.id, kind: kind, tags: tags, vertices: vertices, liftType: liftType))
        }
        return result
    }

    /// A lift is one line from station to station, but mappers often draw the
    /// bullwheel or the station outline at an end, so the way revisits a
    /// vertex. Erasing each loop where it closes keeps the line between the
    /// two ends; a way drawn as a closed ring (a carpet's outline) keeps the
    /// ring open at its closing vertex.
    static func liftLine(_ vertices: [Int64]) -> [Int64] {
        if vertices.count > 2, vertices.first == vertices.last, Set(vertices.dropLast()).count == vertices.count - 1 {
            return Array(vertices.dropLast())
        }
        var line: [Int64] = []
        var position: [Int64: Int] = [:]
        for vertex in vertices {
            if let earlier = position[vertex] {
                for erased in line[(earlier + 1)...] { position[erased] = nil }
                line.removeSubrange((earlier + 1)...)
            } else {
                position[vertex] = line.count
                line.append(vertex)
            }
        }
        return line
    }
}

extension OSMData {
    /// How many ways of the snapshot a graph would be built from, by the build's own
    /// rules: runs (downhill and connections) and lifts.
    package var routableWayCounts: (runs: Int, lifts: Int) {
        let routable = WayClassification.classify(self).routable
        let lifts = routable.count { $0.kind == .lift }
        return (routable.count - lifts, lifts)
    }
}
