/// Dense per-vertex data for every vertex of a routable way.
///
/// Vertices are numbered in first-use order (ways by id, vertices in way order),
/// which is deterministic; the OSM id → index map is only ever looked up.
struct VertexTable {
    var index = OSMIDMap()
    var ids: [Int64] = []
    var coordinates: [Coordinate] = []
    /// Final elevation (known, interpolated or flat).
    var elevation: [Double] = []
    var hasElevation: [Bool] = []
    /// Set when another way (or the same way a second time) uses the vertex:
    /// the source-topology junctions where ways are split.
    var isShared: [Bool] = []

    init() {}

    /// Registers the vertices of all routable ways and their known elevations
    /// (`ele` tag first, then the elevation source).
    init(ways: [RoutableWay], osm: OSMData, elevation source: (any ElevationSource)?) {
        let uses = ways.reduce(0) { $0 + $1.vertices.count }
        index = OSMIDMap(minimumCapacity: uses)
        ids.reserveCapacity(uses)
        coordinates.reserveCapacity(uses)
        elevation.reserveCapacity(uses)
        hasElevation.reserveCapacity(uses)
        isShared.reserveCapacity(uses)
        for way in ways {
            for vertex in way.vertices {
                if let existing = index.insertIfAbsent(ids.count, forKey: vertex) {
                    // A second use, by another way or by the same way again
                    // (consecutive repeats were removed, so that is a loop).
                    isShared[existing] = true
                    continue
                }
                let node = osm.nodes[vertex]!
                let coordinate = Coordinate(lat: node.lat, lon: node.lon)
                let known = (node.tags.isEmpty ? nil : Self.eleTag(node.tags["ele"])) ?? source?.elevation(at: coordinate)
                ids.append(vertex)
                coordinates.append(coordinate)
                elevation.append(known ?? 0)
                hasElevation.append(known != nil)
                isShared.append(false)
            }
        }
    }

    /// A numeric `ele` tag in metres ("2105", "2105.5", "2105 m").
    static func eleTag(_ value: String?) -> Double? {
        guard let value else { return nil }
        // Almost every tag is a bare number: read it without making new strings.
        var number = Double(value)
        if number == nil {
            var text = value.trimmingPrefixWhitespace()
            if text.hasSuffix("m") { text = String(text.dropLast()).trimmingSuffixWhitespace() }
            number = Double(text)
        }
        guard let number, number.isFinite, number > -500, number < 9000 else { return nil }
        return number
    }
}

extension String {
    func trimmingPrefixWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" })
    }
    func trimmingSuffixWhitespace() -> String {
        var copy = self
        while copy.last == " " || copy.last == "\t" { copy.removeLast() }
        return copy
    }
}
