extension OSMData {
    /// Reads Overpass API JSON: `{"elements":[…]}` with nodes as separate
    /// elements (`out body`) and/or ways carrying inline `geometry` (`out geom`).
    /// Relations and unknown keys are skipped; ids and tags are kept verbatim.
    public init(overpassJSON bytes: [UInt8]) throws(OSMError) {
        self = try OverpassAnswer(bytes: bytes).data
    }

    /// One pass over an Overpass document: its elements, and what it says beside them.
    static func readOverpassJSON(_ bytes: [UInt8]) throws(OSMError) -> OverpassAnswer {
        var collector = OSMCollector()
        var header = OverpassAnswer.Header()
        var sawElements = false
        try OSMError.reading(other: OSMError.notOverpassJSON) {
            var scanner = try JSONScanner(bytes: bytes)
            guard scanner.peek() == UInt8(ascii: "{") else {
                throw OSMError.notOverpassJSON("the document is not a JSON object")
            }
            var elementIndex = 0
            var elementError: OSMError?
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                switch key {
                case "remark" where scanner.peek() == UInt8(ascii: "\""):
                    header.remark = try scanner.readString()
                    return
                case "osm3s":
                    return try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                        if key == "timestamp_osm_base", !(try scanner.readNullIfPresent()) {
                            header.timestampOSMBase = try scanner.readString()
                        } else {
                            try scanner.skipValue()
                        }
                    }
                case "elements" where elementError == nil:
                    break
                default:
                    return try scanner.skipValue()
                }
                sawElements = true
                try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in
                    defer { elementIndex += 1 }
                    guard elementError == nil else { return try scanner.skipValue() }
                    do {
                        try Self.readElement(&scanner, index: elementIndex, into: &collector, header: &header)
                    } catch let error as OSMError {
                        elementError = error
                    } catch let error as JSONError {
                        throw error
                    } catch {
                        elementError = .invalidElement(index: elementIndex, "\(error)")
                    }
                }
            }
            if let elementError { throw elementError }
            guard scanner.atEnd() else { throw OSMError.json(scanner.error("unexpected content after the document")) }
        }
        guard sawElements else { throw .notOverpassJSON("the object has no \"elements\" array") }
        return OverpassAnswer(data: try collector.finish(), header: header)
    }

    private struct RawElement {
        var type: String?
        var id: Int64?
        var lat: Double?
        var lon: Double?
        var nodes: [Int64]?
        var geometry: [(lat: Double, lon: Double)?]?
        var tags: [String: String] = [:]
        var memberWays: [Int64] = []
    }

    private static func readElement(_ scanner: inout JSONScanner, index: Int, into collector: inout OSMCollector,
                                    header: inout OverpassAnswer.Header) throws {
        var raw = RawElement()
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
            switch key {
            case "type": raw.type = try scanner.readString()
            case "id": raw.id = try scanner.readInt64()
            case "lat": raw.lat = try scanner.readDouble()
            case "lon": raw.lon = try scanner.readDouble()
            case "nodes":
                var ids: [Int64] = []
                try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in ids.append(try scanner.readInt64()) }
                raw.nodes = ids
            case "geometry":
                var points: [(lat: Double, lon: Double)?] = []
                try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in
                    // Overpass writes null for vertices outside the query's bbox.
                    if try scanner.readNullIfPresent() { points.append(nil); return }
                    var lat: Double?
                    var lon: Double?
                    try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                        switch key {
                        case "lat": lat = try scanner.readDouble()
                        case "lon": lon = try scanner.readDouble()
                        default: try scanner.skipValue()
                        }
                    }
                    if let lat, let lon { points.append((lat, lon)) } else { points.append(nil) }
                }
                raw.geometry = points
            case "tags":
                try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                    if try scanner.readNullIfPresent() { return }
                    raw.tags[key] = try scanner.readString()
                }
            case "members" where scanner.peek() == UInt8(ascii: "["):
                try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in
                    // Only an object is a member; anything else is skipped, as unknown keys are.
                    guard scanner.peek() == UInt8(ascii: "{") else { return try scanner.skipValue() }
                    var memberType: String?
                    var ref: Int64?
                    try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                        switch key {
                        case "type": memberType = try scanner.readString()
                        case "ref": ref = try scanner.readInt64()
                        default: try scanner.skipValue()
                        }
                    }
                    if memberType == "way", let ref { raw.memberWays.append(ref) }
                }
            default:
                try scanner.skipValue()
            }
        }
        switch raw.type {
        case "node":
            guard let id = raw.id else { throw OSMError.invalidElement(index: index, "node without an id") }
            guard let lat = raw.lat, let lon = raw.lon else {
                // `out ids` / `out tags` nodes carry no position; they cannot be vertices.
                return
            }
            guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw OSMError.invalidElement(index: index, "node \(id) has coordinates outside the globe (\(lat), \(lon))")
            }
            try collector.add(OSMNode(id: id, lat: lat, lon: lon, tags: raw.tags))
        case "way":
            guard let id = raw.id else { throw OSMError.invalidElement(index: index, "way without an id") }
            let nodeIDs = raw.nodes ?? []
            if let geometry = raw.geometry {
                guard geometry.count == nodeIDs.count else {
                    throw OSMError.invalidElement(index: index, "way \(id) has \(nodeIDs.count) node ids but \(geometry.count) geometry points")
                }
                for (nodeID, point) in zip(nodeIDs, geometry) {
                    if let point { try collector.addInline(nodeID: nodeID, lat: point.lat, lon: point.lon) }
                }
            }
            try collector.add(OSMWay(id: id, nodeIDs: nodeIDs, tags: raw.tags))
        case "relation":
            // Not part of the graph; which ways it brought into the answer is.
            header.relationCount += 1
            if !raw.memberWays.isEmpty { header.relationWayMembers.append(raw.memberWays) }
        case nil:
            throw OSMError.invalidElement(index: index, "element without a type")
        default:
            return   // areas, counts: not part of the graph
        }
    }
}
