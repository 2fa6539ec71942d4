import MountainGraph

/// An Overpass answer checked before it may become a resort's snapshot: JSON
/// read to its end (a cut-short answer is refused), no runtime-error remark
/// (Overpass answers 200 with whatever it had when a query fails part-way),
/// a data date, every node its ways use, everything in or near the box, and
/// at least one piste or lift. The extract is the answer byte for byte, as
/// `summit resort ingest` stores one unmodified Overpass JSON file.
struct CheckedOverpassAnswer: Sendable {
    /// How far outside the box a way may reach and still be the box's: ways
    /// that cross the edge keep all their vertices.
    static let margin = 0.05

    let extract: OSMExtract
    let answer: OverpassAnswer
    /// Runs (downhill and connections) and lifts a graph would be built from.
    let pistes: Int
    let lifts: Int

    init(bytes: [UInt8], box: OSMBoundingBox, from host: String) throws {
        let from = "the answer from \(host)"
        let refused = "; nothing was stored"
        let again = "try again later; if it happens again, ask another Overpass server with --overpass URL"
        if OSMFormat.detect(bytes) == .osmXML {
            throw CLIError("\(from) is an HTML or XML page, not Overpass JSON" + (OverpassClient.said(bytes).map { ": \"\($0)\"" } ?? "") + refused,
                           fix: "check --overpass points at an Overpass API interpreter (…/api/interpreter)")
        }
        let answer: OverpassAnswer
        do {
            answer = try OverpassAnswer(bytes: bytes)
        } catch .json(let json) {
            // A whole JSON object ends with its closing brace; an answer without one, or one the
            // reader runs off the end of, was cut off.
            if json.offset >= bytes.count - 1 || bytes.last(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) != UInt8(ascii: "}") {
                throw CLIError("\(from) stops short after \(bytes.count) bytes (\(json.message) at byte \(json.offset)): "
                               + "the server or the connection broke off mid-answer" + refused, fix: again)
            }
            throw CLIError("\(from) is not an Overpass JSON document (\(json.message) at byte \(json.offset))" + refused,
                           fix: "check --overpass points at an Overpass API interpreter (…/api/interpreter)")
        } catch .notOverpassJSON(let why) {
            throw CLIError("\(from) is not an Overpass JSON document (\(why))" + refused,
                           fix: "check --overpass points at an Overpass API interpreter (…/api/interpreter)")
        } catch {
            throw CLIError("\(from) is not a consistent OSM snapshot (\(error))" + refused, fix: again)
        }
        if let remark = answer.remark, remark.lowercased().contains("error") {
            let fix = remark.contains("timed out") ? "the server gave up on the query: try again when it is less busy, or allow longer with --timeout SECONDS"
                : remark.contains("memory") || remark.contains("maxsize") ? "the query needs more memory than it may use: allow more with --max-mib, or try again later"
                : again
            throw CLIError("Overpass reports \"\(remark)\": its answer is incomplete" + refused, fix: fix)
        }
        guard let timestamp = answer.timestampOSMBase, let date = OSMExtract.isoDate(String(timestamp.prefix(10))) else {
            throw CLIError("\(from) carries no osm3s.timestamp_osm_base, the date of its data, which becomes the snapshot date" + refused,
                           fix: "check --overpass points at an Overpass API interpreter (…/api/interpreter)")
        }
        let data = answer.data

        let missing = data.ways.flatMap { way in way.nodeIDs.filter { data.nodes[$0] == nil }.map { (way.id, $0) } }
        if let first = missing.first {
            let count = Set(missing.map(\.1)).count
            throw CLIError("\(from) lacks \(count) node\(count == 1 ? "" : "s") its ways use (way \(first.0) uses node \(first.1)): an incomplete answer" + refused,
                           fix: again)
        }

        let near = Self.grown(box)
        let waysNear = Set(data.ways.filter { way in
            way.nodeIDs.contains { data.nodes[$0].map { near.contains(lat: $0.lat, lon: $0.lon) } ?? false }
        }.map(\.id))
        // A relation with a way in the box brings in all its ways, wherever they lie (a long
        // ski route); one with none there has no business in the answer.
        let broughtIn = Set(answer.relationWayMembers.filter { $0.contains(where: waysNear.contains) }.joined())
        let used = Set(data.ways.flatMap(\.nodeIDs))
        let farWays = data.ways.filter { !waysNear.contains($0.id) && !broughtIn.contains($0.id) }
        let farNodes = data.nodes.values.filter { !used.contains($0.id) && !near.contains(lat: $0.lat, lon: $0.lon) }
        if !farWays.isEmpty || !farNodes.isEmpty {
            let shown = (farWays.prefix(3).map { "way \($0.id)" } + farNodes.prefix(3).map { "node \($0.id) at \($0.lat),\($0.lon)" })
                .joined(separator: ", ")
            throw CLIError("\(from) is not for the box \(box.text): \(farWays.count) way\(farWays.count == 1 ? "" : "s") and "
                           + "\(farNodes.count) node\(farNodes.count == 1 ? "" : "s") lie more than "
                           + "\(Self.margin)° outside it (\(shown))" + refused,
                           fix: "check --overpass is an Overpass API interpreter that answers the query it is given")
        }

        // Counted by the build's own rules: a nordic trail or a pylon is no resort.
        let (runs, lifts) = data.routableWayCounts
        guard runs + lifts > 0 else {
            throw CLIError("\(from) holds no run and no lift a graph could be built from in the box \(box.text) "
                           + "(\(data.ways.count) ways, \(data.nodes.count) nodes)" + refused,
                           fix: "check the resort's box in the catalog (summit resort catalog list --search NAME); OpenStreetMap may not map it yet")
        }

        self.answer = answer
        self.pistes = runs
        self.lifts = lifts
        self.extract = try OSMExtract(overpassAnswer: bytes, data: data,
                                      sourceName: "Overpass answer from \(host) for \(box.text), data of \(timestamp)", snapshotDate: date)
    }

    /// The box the answer's ways reach: the catalog box, grown to every node a way uses
    /// (ways that cross its edge, and a relation's ways wherever they lie). The SRTM
    /// tiles stored with the snapshot are those that cover it.
    func reach(beyond box: OSMBoundingBox) -> OSMBoundingBox {
        let data = extract.data
        var (south, west, north, east) = (box.south, box.west, box.north, box.east)
        for way in data.ways {
            for node in way.nodeIDs.compactMap({ data.nodes[$0] }) {
                south = min(south, node.lat)
                north = max(north, node.lat)
                west = min(west, node.lon)
                east = max(east, node.lon)
            }
        }
        return (try? OSMBoundingBox(south: south, west: west, north: north, east: east)) ?? box
    }

    static func grown(_ box: OSMBoundingBox) -> OSMBoundingBox {
        (try? OSMBoundingBox(south: max(-90, box.south - margin), west: max(-180, box.west - margin),
                             north: min(90, box.north + margin), east: min(180, box.east + margin))) ?? box
    }
}
