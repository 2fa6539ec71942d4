@testable import MountainGraph

/// Small hand-written OSM extracts for focused tests, emitted as Overpass
/// JSON (`out body`). Vertices are laid out on a local metre grid near
/// 46° N, 7° E; each may carry an `ele` tag.
struct OSMFixture {
    private var nodeLines: [String] = []
    private var wayLines: [String] = []

    /// Adds vertex `id` at (`east`, `north`) metres with optional elevation and tags.
    mutating func node(_ id: Int64, east: Double, north: Double, ele: Double? = nil, tags: [String: String] = [:]) {
        let lat = 46.0 + north / 111_320
        let lon = 7.0 + east / 77_330
        var allTags = tags
        if let ele { allTags["ele"] = String(ele) }
        nodeLines.append(#"{"type":"node","id":\#(id),"lat":\#(lat),"lon":\#(lon)\#(Self.tagsJSON(allTags))}"#)
    }

    mutating func way(_ id: Int64, _ nodes: [Int64], _ tags: [String: String]) {
        let list = nodes.map(String.init).joined(separator: ",")
        wayLines.append(#"{"type":"way","id":\#(id),"nodes":[\#(list)]\#(Self.tagsJSON(tags))}"#)
    }

    mutating func run(_ id: Int64, _ nodes: [Int64], name: String? = nil, difficulty: String = "intermediate",
                      extra: [String: String] = [:]) {
        var tags = ["piste:type": "downhill", "piste:difficulty": difficulty]
        if let name { tags["name"] = name }
        tags.merge(extra) { $1 }
        way(id, nodes, tags)
    }

    mutating func lift(_ id: Int64, _ nodes: [Int64], type: String = "chair_lift", name: String? = nil,
                       extra: [String: String] = [:]) {
        var tags = ["aerialway": type]
        if let name { tags["name"] = name }
        tags.merge(extra) { $1 }
        way(id, nodes, tags)
    }

    var json: String {
        "{\"elements\":[\n" + (nodeLines + wayLines).joined(separator: ",\n") + "\n]}"
    }

    var bytes: [UInt8] { Array(json.utf8) }

    func osm() throws -> OSMData { try OSMData(overpassJSON: bytes) }

    func build(manifest: CanonicalManifest? = nil, options: BuildOptions = BuildOptions()) throws -> BuildResult {
        try GraphBuilder.build(osm: osm(), manifest: manifest, parameters: Self.parameters, options: options)
    }

    static let parameters = BuildParameters(resortID: "fixture", manifestVersion: 1, snapshotDate: "2025-01-01")

    private static func tagsJSON(_ tags: [String: String]) -> String {
        guard !tags.isEmpty else { return "" }
        let members = tags.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }
        return ",\"tags\":{" + members.joined(separator: ",") + "}"
    }

    /// A small mountain: lift 100 (base 1 → top 2), run 200 from the top back
    /// down through 3 and 4, run 201 from the top via 5 joining run 200 at 4.
    static func smallMountain() -> OSMFixture {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1000)
        f.node(2, east: 0, north: 1000, ele: 1500)
        f.node(3, east: 150, north: 700, ele: 1350)
        f.node(4, east: 150, north: 300, ele: 1150)
        f.node(5, east: -150, north: 600, ele: 1300)
        f.lift(100, [1, 2], name: "Summit Express")
        f.run(200, [2, 3, 4, 1], name: "Main Street", difficulty: "easy")
        f.run(201, [2, 5, 4], name: "Side Trail", difficulty: "advanced")
        return f
    }
}

extension MountainGraph {
    func edge(_ id: String) -> GraphEdge? { edges.first { $0.id == id } }
}
