/// Gathers nodes and ways from any OSM reader and checks that repeated
/// elements agree (Overpass `out body; >; out qt;` legitimately repeats nodes).
struct OSMCollector {
    var nodes: [Int64: OSMNode] = [:]
    var ways: [Int64: OSMWay] = [:]
    /// Coordinates seen only inline on ways (`out geom`), used when the node
    /// itself is not listed as an element.
    var inlineCoordinates: [Int64: (lat: Double, lon: Double)] = [:]

    mutating func add(_ node: OSMNode) throws(OSMError) {
        if let existing = nodes[node.id] {
            guard existing.lat == node.lat, existing.lon == node.lon else { throw .conflictingNode(id: node.id) }
            // Keep the tagged copy when one repetition omits tags (`out qt`/`skel`).
            if existing.tags.isEmpty, !node.tags.isEmpty { nodes[node.id] = node }
            return
        }
        nodes[node.id] = node
    }

    mutating func add(_ way: OSMWay) throws(OSMError) {
        if let existing = ways[way.id] {
            guard existing.nodeIDs == way.nodeIDs else { throw .duplicateWay(id: way.id) }
            if existing.tags.isEmpty { ways[way.id] = way }
            return
        }
        ways[way.id] = way
    }

    mutating func addInline(nodeID: Int64, lat: Double, lon: Double) throws(OSMError) {
        if let existing = inlineCoordinates[nodeID] {
            guard existing.lat == lat, existing.lon == lon else { throw .conflictingNode(id: nodeID) }
            return
        }
        inlineCoordinates[nodeID] = (lat, lon)
    }

    consuming func finish() throws(OSMError) -> OSMData {
        for (id, coordinate) in inlineCoordinates {
            if let node = nodes[id] {
                guard node.lat == coordinate.lat, node.lon == coordinate.lon else { throw .conflictingNode(id: id) }
            } else {
                nodes[id] = OSMNode(id: id, lat: coordinate.lat, lon: coordinate.lon)
            }
        }
        return OSMData(nodes: nodes, ways: Array(ways.values))
    }
}
