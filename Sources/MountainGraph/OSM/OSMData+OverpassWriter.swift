/// What an Overpass-style document written by `OSMData.overpassJSON(_:)`
/// says about where its elements came from.
public struct OverpassDocumentHeader: Sendable, Equatable {
    /// One input file the elements were read from.
    public struct Source: Sendable, Equatable {
        public var name: String
        public var format: OSMFormat
        public var sha256: String
        public var byteCount: Int
        /// The data timestamp the file carries, if any.
        public var timestamp: String?

        public init(name: String, format: OSMFormat, sha256: String, byteCount: Int, timestamp: String?) {
            self.name = name
            self.format = format
            self.sha256 = sha256
            self.byteCount = byteCount
            self.timestamp = timestamp
        }
    }

    public var generator: String
    /// Written as `osm3s.timestamp_osm_base`, where Overpass puts the data's date.
    public var timestampOSMBase: String?
    public var note: String
    public var sources: [Source]
    /// The box the elements were cut to, if they were.
    public var bbox: OSMBoundingBox?

    public init(generator: String, timestampOSMBase: String?, note: String, sources: [Source], bbox: OSMBoundingBox?) {
        self.generator = generator
        self.timestampOSMBase = timestampOSMBase
        self.note = note
        self.sources = sources
        self.bbox = bbox
    }
}

extension OSMData {
    /// The snapshot as Overpass JSON (`out body` layout, which
    /// `OSMData(overpassJSON:)` reads back to equal nodes and ways): the
    /// header, then nodes by id, then ways by id, one element a line, each
    /// in canonical JSON (keys sorted, shortest round-trip numbers). The same
    /// data and header always give the same bytes.
    ///
    /// Top-level keys: `version`, `generator`, `osm3s` (`copyright`,
    /// `timestamp_osm_base`), `note`, `sources` (`name`, `format`, `sha256`,
    /// `bytes`, `timestamp` per input), `bbox` (when cut), `elements`.
    public func overpassJSON(_ header: OverpassDocumentHeader) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nodes.count * 70 + ways.count * 300 + 1024)
        func member(_ key: String, _ write: (inout CanonicalJSONWriter) -> Void) {
            out.append(contentsOf: Self.canonical { $0.string(key) })
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: Self.canonical(write))
            out.append(contentsOf: Array(",\n".utf8))
        }
        out.append(contentsOf: Array("{\n".utf8))
        member("version") { $0.number(0.6) }
        member("generator") { $0.string(header.generator) }
        member("osm3s") { w in
            w.beginObject()
            w.key("copyright"); w.string("The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.")
            w.key("timestamp_osm_base"); w.string(header.timestampOSMBase)
            w.endObject()
        }
        member("note") { $0.string(header.note) }
        member("sources") { w in
            w.beginArray()
            for source in header.sources {
                w.beginObject()
                w.key("bytes"); w.integer(source.byteCount)
                w.key("format"); w.string(source.format.rawValue)
                w.key("name"); w.string(source.name)
                w.key("sha256"); w.string(source.sha256)
                w.key("timestamp"); w.string(source.timestamp)
                w.endObject()
            }
            w.endArray()
        }
        if let box = header.bbox {
            member("bbox") { w in
                w.beginObject()
                w.key("east"); w.number(box.east)
                w.key("north"); w.number(box.north)
                w.key("south"); w.number(box.south)
                w.key("west"); w.number(box.west)
                w.endObject()
            }
        }
        out.append(contentsOf: Array("\"elements\":[\n".utf8))
        var first = true
        func element(_ write: (inout CanonicalJSONWriter) -> Void) {
            if !first { out.append(contentsOf: Array(",\n".utf8)) }
            first = false
            out.append(contentsOf: Self.canonical(write))
        }
        for id in nodes.keys.sorted() {
            let node = nodes[id]!
            element { $0.overpassNode(id: node.id, lat: node.lat, lon: node.lon, tags: Array(node.tags)) }
        }
        for way in ways {
            element { $0.overpassWay(id: way.id, nodeIDs: way.nodeIDs, tags: Array(way.tags)) }
        }
        out.append(contentsOf: Array("\n]}\n".utf8))
        return out
    }

    private static func canonical(_ write: (inout CanonicalJSONWriter) -> Void) -> [UInt8] {
        var writer = CanonicalJSONWriter()
        write(&writer)
        return writer.bytes
    }

}

extension CanonicalJSONWriter {
    /// One Overpass `out body` node element; `tags` only when there are any.
    mutating func overpassNode(id: Int64, lat: Double, lon: Double, tags: [(String, String)]) {
        beginObject()
        key("id"); integer(Int(id))
        key("lat"); number(lat)
        key("lon"); number(lon)
        overpassTags(tags)
        key("type"); string("node")
        endObject()
    }

    /// One Overpass `out body` way element; `tags` only when there are any.
    mutating func overpassWay(id: Int64, nodeIDs: [Int64], tags: [(String, String)]) {
        beginObject()
        key("id"); integer(Int(id))
        key("nodes")
        beginArray()
        for nodeID in nodeIDs { integer(Int(nodeID)) }
        endArray()
        overpassTags(tags)
        key("type"); string("way")
        endObject()
    }

    /// The `tags` member, keys in UTF-8 byte order as canonical JSON wants them.
    private mutating func overpassTags(_ tags: [(String, String)]) {
        guard !tags.isEmpty else { return }
        key("tags")
        beginObject()
        for (name, value) in tags.sorted(by: { utf8Less($0.0, $1.0) }) {
            key(name)
            string(value)
        }
        endObject()
    }
}
