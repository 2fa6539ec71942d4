/// The formats an OSM input file comes in.
public enum OSMFormat: String, Sendable {
    case osmXML = "osm_xml"
    case overpassJSON = "overpass_json"
    case geoJSON = "geojson"

    /// XML by its first significant byte (`<`); JSON by its top-level keys:
    /// `"elements"` is Overpass JSON, `"features"` or `"type":
    /// "FeatureCollection"` is GeoJSON. Anything else is read as Overpass
    /// JSON, whose reader then says what is missing.
    public static func detect(_ bytes: [UInt8]) -> OSMFormat {
        let first = bytes.first { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "<") { return .osmXML }
        do {
            var scanner = try JSONScanner(bytes: bytes)
            try scanner.expect(UInt8(ascii: "{"))
            if scanner.peek() == UInt8(ascii: "}") { return .overpassJSON }
            while true {
                switch try scanner.readString() {
                case "elements": return .overpassJSON
                case "features": return .geoJSON
                case "type":
                    try scanner.expect(UInt8(ascii: ":"))
                    if scanner.peek() == UInt8(ascii: "\""), try scanner.readString() == "FeatureCollection" { return .geoJSON }
                    try scanner.skipValue()
                default:
                    try scanner.expect(UInt8(ascii: ":"))
                    try scanner.skipValue()
                }
                try scanner.expect(UInt8(ascii: ","))
            }
        } catch {
            return .overpassJSON
        }
    }
}

/// One parsed input of a snapshot, before merging.
public enum OSMInput: Sendable {
    /// Overpass JSON or OSM XML: nodes and ways with their ids.
    case elements(OSMData)
    /// overpass-turbo GeoJSON: ways as coordinates, optional node features.
    case geoJSON(OSMGeoJSON)

    /// Reads one file in whichever format it is in.
    public init(bytes: [UInt8]) throws(OSMError) {
        switch OSMFormat.detect(bytes) {
        case .osmXML: self = .elements(try OSMData(osmXML: bytes))
        case .overpassJSON: self = .elements(try OSMData(overpassJSON: bytes))
        case .geoJSON: self = .geoJSON(try OSMGeoJSON(bytes: bytes))
        }
    }
}

extension OSMData {
    /// Reads an overpass-turbo GeoJSON export on its own (see `OSMGeoJSON`).
    public init(geoJSON bytes: [UInt8]) throws(OSMError) {
        try self.init(merging: [("GeoJSON", .geoJSON(try OSMGeoJSON(bytes: bytes)))])
    }

    /// One snapshot from several inputs, each named (a file name) for errors.
    ///
    /// Nodes and ways with the same id in two inputs are one element when
    /// they agree: same coordinates, same vertex list, and the same tags
    /// (or none on one side, as `out skel` writes). Otherwise the merge is
    /// refused naming the element and both inputs. GeoJSON vertices take the
    /// id of the one node (from any input) at exactly their coordinates, else
    /// the derived id of the coordinates (`OSMGeoJSON.derivedNodeID`), so a
    /// lift in one export ending on a piste vertex of another shares that
    /// vertex. Refused as well: a GeoJSON vertex where two nodes sit (which
    /// one the way uses cannot be told) and two distinct vertices equal at 7
    /// decimals (they would share a derived id). The result does not depend
    /// on the order of `inputs`.
    public init(merging inputs: [(name: String, input: OSMInput)]) throws(OSMError) {
        var merger = OSMMerger()
        for (name, input) in inputs {
            switch input {
            case .elements(let data):
                for id in data.nodes.keys.sorted() { try merger.add(data.nodes[id]!, from: name) }
            case .geoJSON(let document):
                for node in document.nodes { try merger.add(node, from: name) }
            }
        }
        let index = merger.nodesByCoordinate()
        for (name, input) in inputs {
            switch input {
            case .elements(let data):
                for way in data.ways { try merger.add(way, from: name) }
            case .geoJSON(let document):
                for way in document.ways {
                    var nodeIDs: [Int64] = []
                    nodeIDs.reserveCapacity(way.vertices.count)
                    for vertex in way.vertices {
                        nodeIDs.append(try merger.nodeID(at: vertex, index: index, wayID: way.id, from: name))
                    }
                    try merger.add(OSMWay(id: way.id, nodeIDs: nodeIDs, tags: way.tags), from: name)
                }
            }
        }
        self.init(nodes: merger.nodes.mapValues { $0.element }, ways: merger.ways.values.map { $0.element })
    }
}

/// A node or a way, as the merge compares them.
private protocol MergedElement {
    var id: Int64 { get }
    var tags: [String: String] { get }
    /// "node" or "way", and what besides its tags must agree.
    static var kind: String { get }
    static var shape: String { get }
    func hasSameShape(as other: Self) -> Bool
}

extension OSMNode: MergedElement {
    static var kind: String { "node" }
    static var shape: String { "position" }
    func hasSameShape(as other: OSMNode) -> Bool { lat == other.lat && lon == other.lon }
}

extension OSMWay: MergedElement {
    static var kind: String { "way" }
    static var shape: String { "vertices" }
    func hasSameShape(as other: OSMWay) -> Bool { nodeIDs == other.nodeIDs }
}

/// Gathers the elements of several inputs, remembering where each came from.
private struct OSMMerger {
    var nodes: [Int64: (element: OSMNode, source: String)] = [:]
    var ways: [Int64: (element: OSMWay, source: String)] = [:]
    /// The coordinates each derived id was made from.
    var derived: [Int64: Coordinate] = [:]

    mutating func add(_ node: OSMNode, from source: String) throws(OSMError) { try Self.add(node, from: source, to: &nodes) }
    mutating func add(_ way: OSMWay, from source: String) throws(OSMError) { try Self.add(way, from: source, to: &ways) }

    /// One element, or the same again: same shape, and the same tags or
    /// none on one side (the tagged copy is kept).
    private static func add<Element: MergedElement>(_ element: Element, from source: String,
                                                    to table: inout [Int64: (element: Element, source: String)]) throws(OSMError) {
        guard let existing = table[element.id] else {
            table[element.id] = (element, source)
            return
        }
        let name = "\(Element.kind) \(element.id)"
        guard existing.element.hasSameShape(as: element) else {
            throw .differingElement(name, aspect: Element.shape, first: existing.source, second: source)
        }
        let old = existing.element.tags
        guard old == element.tags || old.isEmpty || element.tags.isEmpty else {
            throw .differingElement(name, aspect: "tags", first: existing.source, second: source)
        }
        if old.isEmpty, !element.tags.isEmpty { table[element.id] = (element, source) }
    }

    /// Every node id at each coordinate, ascending.
    func nodesByCoordinate() -> [Coordinate: [Int64]] {
        var index: [Coordinate: [Int64]] = [:]
        for id in nodes.keys.sorted() {
            let node = nodes[id]!.element
            index[Coordinate(lat: node.lat, lon: node.lon), default: []].append(id)
        }
        return index
    }

    /// The vertex at `point`: the node there, else a derived node, added.
    mutating func nodeID(at point: Coordinate, index: [Coordinate: [Int64]], wayID: Int64, from source: String) throws(OSMError) -> Int64 {
        if let ids = index[point] {
            guard ids.count == 1 else { throw .ambiguousVertex(wayID: wayID, lat: point.lat, lon: point.lon, nodeIDs: ids) }
            return ids[0]
        }
        let id = OSMGeoJSON.derivedNodeID(lat: point.lat, lon: point.lon)
        if let other = derived[id] {
            guard other == point else { throw .coordinatesShareNodeID(other, point, nodeID: id) }
            return id
        }
        derived[id] = point
        try add(OSMNode(id: id, lat: point.lat, lon: point.lon), from: source)
        return id
    }
}
