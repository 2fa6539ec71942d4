/// An overpass-turbo GeoJSON export, read as OSM ways and nodes.
///
/// overpass-turbo (and osmtogeojson) write each OSM element as a Feature
/// whose `properties["@id"]` or `id` is `"way/<n>"` / `"node/<n>"`, with the
/// element's OSM tags as the other properties. A way's geometry is its vertex
/// coordinates; **its node ids are not exported**. They are rebuilt when the
/// export is merged (`OSMData(merging:)`):
///
/// - a vertex at exactly the coordinates of a `node/<n>` Point feature (or of
///   a node of another input) is that node, with its id and tags;
/// - any other vertex gets the id `OSMGeoJSON.derivedNodeID(lat:lon:)` of its
///   coordinates, so **vertices with identical coordinates are one vertex**,
///   in one file or across files, and the same coordinates get the same id in
///   every export. That is how shared vertices (a run joining another, a lift
///   ending on a piste vertex) come back; it also joins two distinct OSM
///   nodes that happen to sit on the same point.
///
/// Read: `LineString` (a way), `Polygon` (a closed way: its outer ring;
/// holes are dropped, a way has none) and a `MultiPolygon` of one polygon
/// (likewise), `Point` with a `node/<n>` id (a node). Tags are kept as they
/// are (`area=yes` footprints and station polygons are the builder's
/// business); `@`-prefixed properties (`@id`, `@relations`, …) are the
/// exporter's metadata, not tags, and a property `id` repeating the feature's
/// own id is dropped too. `relation/<n>` features are skipped and counted:
/// relations are not part of the graph in any format. Refused, naming the
/// feature: a feature with no OSM id, a way with any other geometry, a node
/// that is not a Point, coordinates off the globe, nested property values.
public struct OSMGeoJSON: Sendable, Equatable {
    /// One way feature: its OSM id, its vertices in order and its tags.
    public struct Way: Sendable, Equatable {
        public let id: Int64
        public let vertices: [Coordinate]
        public let tags: [String: String]
        /// Its position in the file's `features`, for error messages.
        public let feature: Int
        /// True when it was read from a (Multi)Polygon's outer ring.
        public let fromPolygon: Bool
    }

    public private(set) var ways: [Way] = []
    /// The `node/<n>` Point features, in file order.
    public private(set) var nodes: [OSMNode] = []
    /// `relation/<n>` features, skipped.
    public private(set) var skippedRelations = 0
    /// overpass-turbo's top-level `"timestamp"` (the data's date), if any.
    public private(set) var timestamp: String?

    public init(bytes: [UInt8]) throws(OSMError) {
        let raw = try Self.scan(bytes)
        timestamp = raw.timestamp
        for (index, feature) in raw.features.enumerated() {
            try read(feature, index: index)
        }
    }

    // MARK: - Derived node ids

    /// The first derived id: ids from 2·10¹⁸ up are never real OSM node ids
    /// (those are near 1.3·10¹⁰ and grow by about 10⁹ a year).
    public static let derivedNodeIDBase: Int64 = 2_000_000_000_000_000_000
    private static let longitudeSteps: Int64 = 3_600_000_001   // -180…180 in 1e-7° steps

    /// The node id of a vertex no node feature names: the coordinates
    /// rounded to 7 decimals (OSM's own precision), numbered row by row,
    ///
    ///     id = 2·10¹⁸ + (round(lat·10⁷) + 900 000 000) · 3 600 000 001 + (round(lon·10⁷) + 1 800 000 000)
    ///
    /// One-to-one on the 7-decimal grid (two distinct points never share an
    /// id), positive, at most 8 480 000 005 400 000 000 < 2⁶³: exact in
    /// `Int64`, PostgreSQL `bigint` and `jsonb`, and in JSON read as integers
    /// (Foundation's JSONDecoder, JSONScanner) — but above 2⁵³, so not in
    /// readers that turn every number into a double. Graph node ids are the
    /// strings `"n<id>"`.
    public static func derivedNodeID(lat: Double, lon: Double) -> Int64 {
        let row = Int64((lat * 1e7).rounded()) + 900_000_000
        let column = Int64((lon * 1e7).rounded()) + 1_800_000_000
        return derivedNodeIDBase + row * longitudeSteps + column
    }

    /// The 7-decimal coordinates a derived id stands for, or nil when `id`
    /// is not a derived id.
    public static func coordinate(ofDerivedNodeID id: Int64) -> Coordinate? {
        guard id >= derivedNodeIDBase else { return nil }
        let offset = id - derivedNodeIDBase
        let row = offset / longitudeSteps, column = offset % longitudeSteps
        guard row <= 1_800_000_000 else { return nil }
        return Coordinate(lat: Double(row - 900_000_000) / 1e7, lon: Double(column - 1_800_000_000) / 1e7)
    }

    // MARK: - Reading one feature

    private mutating func read(_ feature: RawFeature, index: Int) throws(OSMError) {
        let named = feature.propertyID ?? feature.id
        func refuse(_ message: String) -> OSMError { .invalidFeature(index: index, id: named, message) }

        if let type = feature.type, type != "Feature" {
            throw refuse("its type is \(type), not Feature")
        }
        let refs = [feature.propertyID, feature.id].compactMap { $0 }
        guard let text = refs.first else {
            throw refuse("it has no OSM id; every feature needs properties[\"@id\"] or id like \"way/123\" or \"node/456\", as overpass-turbo exports them")
        }
        guard refs.allSatisfy({ $0 == text }) else {
            throw refuse("its id \(feature.id ?? "") and properties[\"@id\"] \(feature.propertyID ?? "") differ")
        }
        guard let ref = Self.osmRef(text) else {
            throw refuse("its id \(text) is not an OSM id like \"way/123\", \"node/456\" or \"relation/789\"")
        }
        if ref.type == "relation" {
            skippedRelations += 1
            return
        }
        var tags: [String: String] = [:]
        for (key, value) in feature.properties {
            if key.hasPrefix("@") || (key == "id" && value == .text(text)) { continue }
            switch value {
            case .text(let string): tags[key] = string
            case .null: continue
            case .nested(let kind): throw refuse("property \(key) is \(kind); OSM tags are text (export with flat properties, as overpass-turbo does)")
            }
        }
        guard let geometry = feature.geometry else { throw refuse("it has no geometry") }
        switch ref.type {
        case "node":
            guard geometry.type == "Point", case .position(let numbers)? = geometry.coordinates else {
                throw refuse("a node needs Point geometry, not \(geometry.type ?? "none")")
            }
            let point = try Self.coordinate(numbers, refuse)
            nodes.append(OSMNode(id: ref.id, lat: point.lat, lon: point.lon, tags: tags))
        case "way":
            let ring: Coordinates?
            switch (geometry.type, geometry.coordinates) {
            case ("LineString", let line?):
                ring = line
            case ("Polygon", .list(let rings)?):
                ring = rings.first
            case ("MultiPolygon", .list(let polygons)?):
                guard polygons.count == 1, case .list(let rings) = polygons[0] else {
                    throw refuse("a MultiPolygon of \(polygons.count) polygons is not one way")
                }
                ring = rings.first
            default:
                throw refuse("a way needs LineString, Polygon or single MultiPolygon geometry, not \(geometry.type ?? "none")")
            }
            guard case .list(let positions)? = ring else { throw refuse("its \(geometry.type ?? "") coordinates are not a list of positions") }
            var vertices: [Coordinate] = []
            vertices.reserveCapacity(positions.count)
            for position in positions {
                guard case .position(let numbers) = position else { throw refuse("its \(geometry.type ?? "") coordinates are not a list of positions") }
                vertices.append(try Self.coordinate(numbers, refuse))
            }
            ways.append(Way(id: ref.id, vertices: vertices, tags: tags, feature: index, fromPolygon: geometry.type != "LineString"))
        default:
            throw refuse("its id \(text) is not an OSM way, node or relation")
        }
    }

    /// A GeoJSON position: `[lon, lat]` (a third number, elevation, is ignored).
    private static func coordinate(_ numbers: [Double], _ refuse: (String) -> OSMError) throws(OSMError) -> Coordinate {
        guard numbers.count >= 2 else { throw refuse("a position has \(numbers.count) number(s); it needs [lon, lat]") }
        let lon = numbers[0], lat = numbers[1]
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw refuse("position [\(lon), \(lat)] is outside the globe (GeoJSON writes [lon, lat])")
        }
        return Coordinate(lat: lat, lon: lon)
    }

    /// `"way/123"` → ("way", 123); ids are positive.
    static func osmRef(_ text: String) -> (type: String, id: Int64)? {
        guard let slash = text.firstIndex(of: "/") else { return nil }
        let digits = text[text.index(after: slash)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(digits), id > 0 else { return nil }
        return (String(text[..<slash]), id)
    }

    // MARK: - Scanning the document

    private indirect enum Coordinates {
        case position([Double])
        case list([Coordinates])
    }

    private enum PropertyValue: Equatable {
        case text(String)
        case null
        /// An object or array, named for the error message.
        case nested(String)
    }

    private struct RawGeometry {
        var type: String?
        var coordinates: Coordinates?
    }

    private struct RawFeature {
        var type: String?
        var id: String?
        var propertyID: String?
        var properties: [(String, PropertyValue)] = []
        var geometry: RawGeometry?
    }

    private struct RawDocument {
        var timestamp: String?
        var features: [RawFeature] = []
    }

    /// The whole document, syntax only: features as they are written.
    private static func scan(_ bytes: [UInt8]) throws(OSMError) -> RawDocument {
        var document = RawDocument()
        var type: String?
        var sawFeatures = false
        try OSMError.reading(other: OSMError.notGeoJSON) {
            var scanner = try JSONScanner(bytes: bytes)
            guard scanner.peek() == UInt8(ascii: "{") else { throw OSMError.notGeoJSON("the document is not a JSON object") }
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                switch key {
                case "type": type = try readText(&scanner)
                case "timestamp": document.timestamp = try readText(&scanner)
                case "features":
                    sawFeatures = true
                    try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in
                        document.features.append(try readFeature(&scanner))
                    }
                default: try scanner.skipValue()
                }
            }
            guard scanner.atEnd() else { throw OSMError.json(scanner.error("unexpected content after the document")) }
        }
        if let type, type != "FeatureCollection" {
            throw .notGeoJSON("its type is \(type)")
        }
        guard sawFeatures else { throw .notGeoJSON("the object has no \"features\" array") }
        return document
    }

    private static func readFeature(_ scanner: inout JSONScanner) throws(JSONError) -> RawFeature {
        var feature = RawFeature()
        guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.error("a feature must be a JSON object") }
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
            switch key {
            case "type": feature.type = try readText(&scanner)
            case "id": feature.id = try readText(&scanner)
            case "properties":
                if try scanner.readNullIfPresent() { return }
                try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                    let value = try readProperty(&scanner)
                    if key == "@id", case .text(let text) = value { feature.propertyID = text }
                    feature.properties.append((key, value))
                }
            case "geometry":
                if try scanner.readNullIfPresent() { return }
                var geometry = RawGeometry()
                try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                    switch key {
                    case "type": geometry.type = try readText(&scanner)
                    case "coordinates": geometry.coordinates = try readCoordinates(&scanner, depth: 0)
                    default: try scanner.skipValue()
                    }
                }
                feature.geometry = geometry
            default:
                try scanner.skipValue()
            }
        }
        return feature
    }

    /// A string, or a number's exact text (some exporters write numeric ids and tags).
    private static func readText(_ scanner: inout JSONScanner) throws(JSONError) -> String? {
        guard case .text(let text) = try readProperty(&scanner) else { return nil }
        return text
    }

    private static func readProperty(_ scanner: inout JSONScanner) throws(JSONError) -> PropertyValue {
        switch scanner.peek() {
        case UInt8(ascii: "\""):
            return .text(try scanner.readString())
        case UInt8(ascii: "n"):
            _ = try scanner.readNullIfPresent()
            return .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .text(try scanner.readBool() ? "true" : "false")
        case UInt8(ascii: "{"):
            try scanner.skipValue()
            return .nested("an object")
        case UInt8(ascii: "["):
            try scanner.skipValue()
            return .nested("an array")
        default:
            let token = try scanner.readNumberToken()
            return .text(String(decoding: scanner.bytes[token], as: UTF8.self))
        }
    }

    /// Positions nest at most four deep (a MultiPolygon).
    private static func readCoordinates(_ scanner: inout JSONScanner, depth: Int) throws(JSONError) -> Coordinates {
        guard depth < 4 else { throw scanner.error("coordinates nest deeper than a MultiPolygon's") }
        var items: [Coordinates] = []
        var numbers: [Double] = []
        try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in
            if scanner.peek() == UInt8(ascii: "[") {
                items.append(try readCoordinates(&scanner, depth: depth + 1))
            } else {
                numbers.append(try scanner.readDouble())
            }
        }
        guard items.isEmpty || numbers.isEmpty else { throw scanner.error("a coordinate array mixes numbers and arrays") }
        return numbers.isEmpty ? .list(items) : .position(numbers)
    }
}
